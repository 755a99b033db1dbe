import path from 'node:path';
import { badRequest } from '@wa/core/errors';
import type { ImportFile } from '@wa/core/imports/records';
import { readRecordBatches } from '@wa/core/imports/records';
import type { BulkTarget } from './bulk-target';
import { ByteFile } from './byte-file';
import { copyLine } from './copy-stream';
import { KeyTable } from './key-table';

/**
 * A skipped row as written while the import runs, one JSON array a line:
 * `[line, ref, reason, values, id, status]`. `ref` is the candidate (see `StagedFile`) holding the
 * row's key when the row repeats an earlier one of the file (its id is known only after the
 * merge), else -1; `id` and `status` are the holder's when known at write time.
 */
export type SkipLine = [number, number, string, string[], number | null, string | null];

/** What parsing an upload left on disk: the rows to merge and the rows skipped so far. */
export interface StagedFile {
  /** records read (rows or JSON elements, header excluded) */
  records: number;
  /** rows with a valid, distinct key, as COPY text lines `line<TAB>values…`, in file order */
  candidates: { path: string; count: number };
  /** rows skipped while parsing, in file order (SkipLine JSON lines) */
  skipped: { path: string; count: number };
  /** the first skipped row, for the answer to a file with nothing valid in it */
  firstSkip: { line: number; reason: string } | null;
}

/**
 * Parses the upload to the end into two files under `dir`, touching no database: a client that
 * stalls or goes away mid-upload holds no transaction and no lock, only these files (removed by
 * the caller). Each row is decided here as far as the file alone can say: unreadable or invalid
 * (skipped with its line and reason), a repeat of an earlier row's key (skipped, pointing at that
 * row), or a candidate. Memory holds the keys seen (a typed-array table for phone numbers).
 */
export async function stageFile(
  file: ImportFile,
  target: BulkTarget,
  dir: string,
  mark: (what: string) => void,
): Promise<StagedFile> {
  const { columns } = target;
  const candidates = new ByteFile(path.join(dir, 'candidates.copy'));
  const skipped = new ByteFile(path.join(dir, 'skipped-early.jsonl'));
  const seen = new KeyTable();
  let records = 0;
  let count = 0;
  let skips = 0;
  let firstSkip: StagedFile['firstSkip'] = null;
  const skip = (line: SkipLine): Promise<void> | undefined => {
    skips++;
    firstSkip ??= { line: line[0], reason: line[2] };
    return skipped.add(`${JSON.stringify(line)}\n`);
  };
  try {
    for await (const recs of readRecordBatches(file, columns)) {
      for (const rec of recs) {
        records++;
        if (records % 100_000 === 0) mark(`row ${records}`);
        const raw = () => columns.map((c) => rec.fields[c] ?? '');
        let wait: Promise<void> | undefined;
        if (rec.error) wait = skip([rec.at, -1, rec.error, raw(), null, null]);
        else {
          const norm = target.normalize(rec.fields);
          if ('reason' in norm) wait = skip([rec.at, -1, norm.reason, raw(), null, null]);
          else {
            const k = norm.values[0] ?? '';
            const first = seen.get(k);
            if (first !== undefined) wait = skip([rec.at, first, 'Duplicate in file', norm.values, null, null]);
            else {
              seen.set(k, count++);
              wait = candidates.add(copyLine(rec.at, norm.values));
            }
          }
        }
        if (wait) await wait;
      }
    }
  } finally {
    await candidates.close();
    await skipped.close();
  }
  mark(`parsed (${records} records, ${count} candidates)`);
  return {
    records,
    candidates: { path: candidates.path, count },
    skipped: { path: skipped.path, count: skips },
    firstSkip,
  };
}

/**
 * Refuses (400) an upload the parse left nothing to merge from: empty, or no valid row in it, with
 * the first skipped row's line and reason. Said before any database work, so such a file costs the
 * database nothing.
 */
export function refuseNothingToImport(staged: StagedFile, target: BulkTarget): void {
  if (staged.records === 0) throw badRequest('The file is empty.');
  if (staged.candidates.count === 0) {
    const first = staged.firstSkip;
    throw badRequest(
      `The file has no valid ${target.label}: ${staged.records} ${staged.records === 1 ? 'row' : 'rows'} skipped` +
        (first ? ` (line ${first.line}: ${first.reason}).` : '.'),
    );
  }
}
