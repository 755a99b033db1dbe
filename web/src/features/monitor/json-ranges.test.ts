import { describe, expect, it } from 'vitest';
import { entriesOf, rangeLabel, rangesOf, viewTypeOf } from './json-ranges';

describe('rangesOf', () => {
  it('lists up to 50 entries as they are', () => {
    expect(rangesOf(0, 49)).toBeNull();
    expect(rangesOf(0, 0)).toBeNull();
  });
  it('groups 51 and more into ranges of 50', () => {
    expect(rangesOf(0, 50)).toEqual([
      { from: 0, to: 49 },
      { from: 50, to: 50 },
    ]);
    expect(rangesOf(0, 119)?.map(rangeLabel)).toEqual(['[0…49]', '[50…99]', '[100…119]']);
  });
  it('nests ranges so no level lists more than 50 items', () => {
    const top = rangesOf(0, 2999) ?? [];
    expect(top.map(rangeLabel)).toEqual(['[0…2499]', '[2500…2999]']);
    expect(rangesOf(0, 2499)?.length).toBe(50);
    expect(rangesOf(2500, 2999)?.map(rangeLabel).slice(0, 2)).toEqual(['[2500…2549]', '[2550…2599]']);
  });
});

describe('viewTypeOf', () => {
  it('reads the name or the number of §2, JsonViewer when absent', () => {
    expect(viewTypeOf('string')).toBe('string');
    expect(viewTypeOf('0')).toBe('string');
    expect(viewTypeOf('JsonViewer')).toBe('JsonViewer');
    expect(viewTypeOf('1')).toBe('JsonViewer');
    expect(viewTypeOf('JSONTree')).toBe('JSONTree');
    expect(viewTypeOf('2')).toBe('JSONTree');
    expect(viewTypeOf(null)).toBe('JsonViewer');
  });
});

describe('entriesOf', () => {
  it('pairs array indices and object keys with their values', () => {
    expect(entriesOf(['a', 'b'])).toEqual([
      ['0', 'a'],
      ['1', 'b'],
    ]);
    expect(entriesOf({ x: 1 })).toEqual([['x', 1]]);
  });
});
