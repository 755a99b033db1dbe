import { describe, expect, it } from 'vitest';
import { csvCell, formatRupiah, humanizeState, newClientId, normalizePhone } from './format';

describe('formatRupiah', () => {
  it('formats whole rupiah in id-ID without decimals', () => {
    expect(formatRupiah(10000)).toBe('Rp 10.000');
    expect(formatRupiah(1234567)).toBe('Rp 1.234.567');
    expect(formatRupiah(0)).toBe('Rp 0');
    expect(formatRupiah(null)).toBe('Rp 0');
    expect(formatRupiah(99.6)).toBe('Rp 100');
  });
});

describe('normalizePhone', () => {
  it('brings every common way of writing a number to the 62 prefix', () => {
    expect(normalizePhone('081234567890')).toBe('6281234567890');
    expect(normalizePhone('+62 812-3456-7890')).toBe('6281234567890');
    expect(normalizePhone('6281234567890')).toBe('6281234567890');
    expect(normalizePhone('81234567890')).toBe('6281234567890');
    expect(normalizePhone(6281234567890)).toBe('6281234567890');
    expect(normalizePhone('(0812) 3456.7890')).toBe('6281234567890');
  });

  it('refuses what is not a phone number', () => {
    for (const bad of ['', 'abc', '62', '0812', '12345678', '62812345678901234', '0812abc456', null, undefined]) {
      expect(normalizePhone(bad)).toBeNull();
    }
  });
});

describe('newClientId', () => {
  it('has the form id-{timestamp}-{0..9999}', () => {
    expect(newClientId(1700000000000, () => 0.12345)).toBe('id-1700000000000-1234');
    expect(newClientId(1, () => 0.99999)).toBe('id-1-9999');
    expect(newClientId()).toMatch(/^id-\d{13}-\d{1,4}$/);
  });
});

describe('humanizeState', () => {
  it('turns camelCase states into words', () => {
    expect(humanizeState('loggedOut')).toBe('Logged Out');
    expect(humanizeState('connected')).toBe('Connected');
    expect(humanizeState('reconnecting...')).toBe('Reconnecting...');
    expect(humanizeState(null)).toBe('');
  });
});

describe('csvCell', () => {
  it('neutralises formulas and quotes what needs it', () => {
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('+62812')).toBe("'+62812");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@x')).toBe("'@x");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=a,b')).toBe(`"'=a,b"`);
    expect(csvCell(6281)).toBe('6281');
    expect(csvCell(null)).toBe('');
  });

  it('quotes a value holding ; or a tab, the separators of id-ID spreadsheets and of pasted text', () => {
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('a\tb')).toBe('"a\tb"');
    expect(csvCell('Budi; Jakarta')).toBe('"Budi; Jakarta"');
  });

  it('neutralises a formula start right after a , ; tab or line break inside the value', () => {
    expect(csvCell('x;=1+2')).toBe(`"x;'=1+2"`);
    expect(csvCell('x,+1')).toBe(`"x,'+1"`);
    expect(csvCell('x\t@SUM(A1)')).toBe(`"x\t'@SUM(A1)"`);
    expect(csvCell('Dua, Jr.')).toBe('"Dua, Jr."');
    expect(csvCell('a;b;=c;d')).toBe(`"a;b;'=c;d"`);
    expect(csvCell('=a;=b,=c')).toBe(`"'=a;'=b,'=c"`);
    expect(csvCell('x\n=1')).toBe(`"x\n'=1"`);
    // a formula start that is itself a separator gets its own mark, so no split piece starts bare
    expect(csvCell('x;\t=1')).toBe(`"x;'\t'=1"`);
    expect(csvCell('\t=1')).toBe(`"'\t'=1"`);
    expect(csvCell('u;=1+2:p@10.0.0.1:8080')).toBe(`"u;'=1+2:p@10.0.0.1:8080"`);
  });

  it('leaves numbers, normalised phone numbers and ordinary text as they are', () => {
    expect(csvCell('6281234')).toBe('6281234');
    expect(csvCell(6281234567890)).toBe('6281234567890');
    expect(csvCell('Budi Santoso')).toBe('Budi Santoso');
    expect(csvCell('a=b+c')).toBe('a=b+c');
    expect(csvCell('user:pass@10.0.0.1:8080')).toBe('user:pass@10.0.0.1:8080');
    expect(csvCell('nonactive')).toBe('nonactive');
  });
});
