import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv-stream';

async function parse(text: string | string[], max?: number, multiline?: boolean) {
  const chunks = Array.isArray(text) ? text : [text];
  async function* gen() {
    yield* chunks;
  }
  const out = [];
  for await (const r of parseCsv(gen(), { maxRowChars: max, multiline })) out.push(r);
  return out;
}

describe('parseCsv', () => {
  it('reads plain rows with LF or CRLF and skips blank lines', async () => {
    expect(await parse('a,b\r\n1,2\n\n3,4')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['1', '2'] },
      { line: 4, fields: ['3', '4'] },
    ]);
  });

  it('reads quoted fields with commas, doubled quotes and newlines', async () => {
    expect(await parse('"a,b","say ""hi""","line\nbreak"\nx,"",y\n')).toEqual([
      { line: 1, fields: ['a,b', 'say "hi"', 'line\nbreak'] },
      { line: 3, fields: ['x', '', 'y'] },
    ]);
  });

  it('gives the same rows whatever the chunk boundaries', async () => {
    const text = 'number,name\n"0812,3","A ""B"""\r\n0813,C\n';
    const whole = await parse(text);
    for (let size = 1; size < text.length; size++) {
      const chunks: string[] = [];
      for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
      expect(await parse(chunks), `chunk size ${size}`).toEqual(whole);
    }
  });

  it('reports a row over the cap as too long, without holding it, and goes on', async () => {
    const huge = 'x'.repeat(5000);
    const rows = await parse([`0812,a\n${huge.slice(0, 2000)}`, `${huge.slice(2000)},b\n0813,c\n`], 1000);
    expect(rows).toEqual([
      { line: 1, fields: ['0812', 'a'] },
      { line: 2, fields: [], tooLong: true },
      { line: 3, fields: ['0813', 'c'] },
    ]);
  });

  it('keeps a last row without a newline, and an empty file gives nothing', async () => {
    expect(await parse('a')).toEqual([{ line: 1, fields: ['a'] }]);
    expect(await parse('')).toEqual([]);
    expect(await parse('\n\n')).toEqual([]);
  });
});

describe('parseCsv without multi-line fields (imports)', () => {
  it('reports a quote left open on its line as that row only and reads the next lines as rows', async () => {
    const text = 'number,name\n0812,"Bad name\r\n0813,Good\n0814,"Quoted, ok"\n0815,"never closes';
    const whole = await parse(text, undefined, false);
    expect(whole).toEqual([
      { line: 1, fields: ['number', 'name'] },
      { line: 2, fields: [], badQuote: true },
      { line: 3, fields: ['0813', 'Good'] },
      { line: 4, fields: ['0814', 'Quoted, ok'] },
      { line: 5, fields: [], badQuote: true },
    ]);
    for (let size = 1; size < text.length; size++) {
      const chunks: string[] = [];
      for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
      expect(await parse(chunks, undefined, false), `chunk size ${size}`).toEqual(whole);
    }
  });

  it('still reads doubled quotes and commas inside quotes', async () => {
    expect(await parse('"a,b","say ""hi"""\n', undefined, false)).toEqual([{ line: 1, fields: ['a,b', 'say "hi"'] }]);
  });
});
