import { describe, expect, it } from 'vitest';
import { PHONE_IMPORT } from '../modules/phone-numbers/phone-numbers.service';
import { KeyTable } from './key-table';

describe('KeyTable', () => {
  it('keeps numeric and other keys apart and exact, across growth', () => {
    const t = new KeyTable();
    for (let i = 0; i < 200_000; i++) t.set(`62812${String(i).padStart(8, '0')}`, i * 8 + 1);
    t.set('0812', 5);
    t.set('812', 7);
    t.set('http://a:1', 9);
    expect(t.size).toBe(200_003);
    expect(t.get('6281200000000')).toBe(1);
    expect(t.get('6281200199999')).toBe(199_999 * 8 + 1);
    expect(t.get('6281200200000')).toBeUndefined();
    expect(t.get('0812')).toBe(5);
    expect(t.get('812')).toBe(7);
    expect(t.get('http://a:1')).toBe(9);
    t.set('6281200000000', 2);
    expect(t.get('6281200000000')).toBe(2);
    expect(t.size).toBe(200_003);
  });
});

describe('PHONE_IMPORT.toJson', () => {
  it('writes the same JSON as the DTO, names with quotes and backslashes included', () => {
    for (const name of ['Budi', 'A "quoted" \\ name', '', 'émoji 😀\n']) {
      const values = ['6281234567890', name, 'nonactive'];
      expect(PHONE_IMPORT.toJson?.(42, values)).toBe(JSON.stringify(PHONE_IMPORT.toDto(42, values)));
    }
  });
});
