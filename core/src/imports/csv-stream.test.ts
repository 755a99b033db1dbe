import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv-stream';

async function parse(text: string | string[], max?: number) {
  const chunks = Array.isArray(text) ? text : [text];
  async function* gen() {
    yield* chunks;
  }
  const out = [];
  for await (const r of parseCsv(gen(), max)) out.push(r);
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
