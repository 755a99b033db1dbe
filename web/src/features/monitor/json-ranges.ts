import { JSON_COLLECTION_LIMIT } from '@wa/shared';

/** An inclusive run of entry indices of one collection. */
export interface EntryRange {
  from: number;
  to: number;
}

/**
 * How the entries `from..to` of a collection are shown (§2 Monitor, §9): as they are when there are
 * at most `limit`, else as ranges of `limit`, `limit²`, … entries so that no level lists more than
 * `limit` items (55 entries → [0…49] [50…54]; 3000 → [0…2499] [2500…2999]).
 */
export function rangesOf(from: number, to: number, limit = JSON_COLLECTION_LIMIT): EntryRange[] | null {
  const count = to - from + 1;
  if (count <= limit) return null;
  let size = limit;
  while (Math.ceil(count / size) > limit) size *= limit;
  const out: EntryRange[] = [];
  for (let start = from; start <= to; start += size) out.push({ from: start, to: Math.min(to, start + size - 1) });
  return out;
}

/** The label of a range, as JSON viewers write it: `[0…49]`. */
export const rangeLabel = (r: EntryRange) => `[${r.from}…${r.to}]`;

/** The entries of an array or object as [key, value] pairs. */
export function entriesOf(value: object): [string, unknown][] {
  return Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
}

/** The type names the viewers show: `view type` of §2 from ?type= (name or number), default JsonViewer. */
export type ViewType = 'string' | 'JsonViewer' | 'JSONTree';

export function viewTypeOf(param: string | null): ViewType {
  switch ((param ?? '').trim().toLowerCase()) {
    case 'string':
    case '0':
      return 'string';
    case 'jsontree':
    case '2':
      return 'JSONTree';
    default:
      return 'JsonViewer';
  }
}
