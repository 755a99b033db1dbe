import { parseCsvBatches } from './csv-stream';
import { parseJsonArray } from './json-stream';

export type ImportExt = 'csv' | 'json';

export interface ImportFile {
  /** the file name as uploaded */
  name: string;
  ext: ImportExt;
  /** the file's text, decoded as UTF-8, chunk by chunk as it arrives */
  text: AsyncIterable<string>;
  /** the request's size in bytes when the client said it (Content-Length), to plan large loads */
  bytes?: number;
}

/** One record of an import file, its fields by name; `error` when the row could not be read. */
export interface ImportRecord {
  /** line (CSV, where the row starts) or element position (JSON), for messages */
  at: number;
  fields: Record<string, string>;
  error?: string;
}

const MAX_ROW_CHARS = 16 * 1024;

function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return '';
}

/**
 * Reads the records of a CSV or JSON import with the given columns. A CSV whose first row names a
 * column is read by header; otherwise its columns are taken in order. A JSON file is an array of
 * objects with those keys, or of plain values for the first column.
 */
export async function* readRecordBatches(file: ImportFile, columns: readonly string[]): AsyncGenerator<ImportRecord[]> {
  if (file.ext === 'json') {
    for await (const item of parseJsonArray(file.text, MAX_ROW_CHARS)) {
      if (item.tooLong) {
        yield [{ at: item.index, fields: {}, error: 'Row is too long' }];
        continue;
      }
      const v = item.value;
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
        const o = v as Record<string, unknown>;
        const fields: Record<string, string> = {};
        for (const c of columns) fields[c] = text(o[c]).trim();
        yield [{ at: item.index, fields }];
      } else if (typeof v === 'string' || typeof v === 'number') {
        yield [{ at: item.index, fields: { [columns[0]]: String(v).trim() } }];
      } else {
        yield [{ at: item.index, fields: {}, error: 'Not a record' }];
      }
    }
    return;
  }
  let order: number[] | null = null;
  // with a header, a row may carry as many fields as it names (without one, extra fields are ignored)
  let width = Number.POSITIVE_INFINITY;
  // no line breaks inside quotes: an import's fields never hold one, and a stray quote must cost
  // its own row only, not every row after it
  for await (const rows of parseCsvBatches(file.text, { maxRowChars: MAX_ROW_CHARS, multiline: false })) {
    const out: ImportRecord[] = [];
    for (const row of rows) {
      if (row.tooLong) {
        out.push({ at: row.line, fields: {}, error: 'Row is too long' });
        continue;
      }
      if (row.badQuote) {
        out.push({ at: row.line, fields: {}, error: 'Unclosed quote: a quoted field does not end on its line' });
        continue;
      }
      if (order === null) {
        const names = row.fields.map((f) =>
          f
            .replace(/^\ufeff/, '')
            .trim()
            .toLowerCase(),
        );
        if (names.includes(columns[0])) {
          order = columns.map((c) => names.indexOf(c));
          width = names.length;
          continue;
        }
        order = columns.map((_, i) => i);
      }
      const fields: Record<string, string> = {};
      for (let i = 0; i < columns.length; i++) {
        const k = order[i];
        fields[columns[i]] = k >= 0 && k < row.fields.length ? row.fields[k].trim() : '';
      }
      // trailing empty fields (a trailing comma) are harmless; more filled ones shift the columns
      let used = row.fields.length;
      while (used > 0 && row.fields[used - 1].trim() === '') used--;
      if (used > width) {
        out.push({ at: row.line, fields, error: `Wrong columns: ${used} fields, the header has ${width}` });
        continue;
      }
      out.push({ at: row.line, fields });
    }
    if (out.length) yield out;
  }
}

/** The records of an import one by one (see `readRecordBatches`). */
export async function* readRecords(file: ImportFile, columns: readonly string[]): AsyncGenerator<ImportRecord> {
  for await (const batch of readRecordBatches(file, columns)) yield* batch;
}
