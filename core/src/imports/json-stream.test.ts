import { describe, expect, it } from 'vitest';
import { ImportFileError, parseJsonArray } from './json-stream';

async function parse(text: string | string[], max?: number) {
  const chunks = Array.isArray(text) ? text : [text];
  async function* gen() {
    yield* chunks;
  }
  const out = [];
  for await (const r of parseJsonArray(gen(), max)) out.push(r);
  return out;
}

describe('parseJsonArray', () => {
  it('yields each element of the array in order', async () => {
    const text = ' [ {"number":"0812","name":"A, \\"B\\" ]"}, "0813", 42, [1,2] ] \n';
    expect(await parse(text)).toEqual([
      { index: 1, value: { number: '0812', name: 'A, "B" ]' } },
      { index: 2, value: '0813' },
      { index: 3, value: 42 },
      { index: 4, value: [1, 2] },
    ]);
  });

  it('gives the same elements whatever the chunk boundaries', async () => {
    const text = '[{"a":"x,}]"},{"b":[1,{"c":2}]},"s"]';
    const whole = await parse(text);
    for (let size = 1; size < text.length; size++) {
      const chunks: string[] = [];
      for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
      expect(await parse(chunks), `chunk size ${size}`).toEqual(whole);
    }
  });

  it('accepts an empty array', async () => {
    expect(await parse('[]')).toEqual([]);
    expect(await parse('[ \n ]')).toEqual([]);
  });

  it('refuses what is not an array, and broken or cut files', async () => {
    const cases: [string, RegExp][] = [
      ['', /empty/],
      ['{"number":"0812"}', /must hold an array/],
      ['[{"a":1},', /never closes/],
      ['[{"a":1}', /never closes/],
      ['[{"a":1},,{"b":2}]', /broken/],
      ['[{"a":1},]', /trailing comma/],
      ['[{"a":1} {"b":2}]', /broken/],
      ['[{"a":}]', /broken/],
      ['[1] x', /after its closing/],
    ];
    for (const [text, msg] of cases) {
      await expect(parse(text), text).rejects.toThrow(ImportFileError);
      await expect(parse(text), text).rejects.toThrow(msg);
    }
  });

  it('reports an element over the cap as too long and goes on', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(3000) });
    expect(await parse([`["a",${big.slice(0, 100)}`, `${big.slice(100)},"b"]`], 1000)).toEqual([
      { index: 1, value: 'a' },
      { index: 2, value: null, tooLong: true },
      { index: 3, value: 'b' },
    ]);
  });
});
