import { createReadStream } from 'node:fs';
import path from 'node:path';
import { csvCell, IMPORT_SKIPPED_SHOWN } from '@wa/shared';
import type { BulkTarget } from './bulk-target';
import { ByteFile } from './byte-file';
import type { Holders, MergedFiles } from './merge';
import type { SkippedStore } from './skipped-store';
import type { SkipLine, StagedFile } from './stage';

/** The skipped rows of a file, one SkipLine at a time, in file order. */
async function* skipLines(file: string): AsyncGenerator<SkipLine> {
  let rest = '';
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const parts = (rest + (chunk as string)).split('\n');
    rest = parts.pop() ?? '';
    for (const p of parts) if (p) yield JSON.parse(p) as SkipLine;
  }
  if (rest) yield JSON.parse(rest) as SkipLine;
}

/** Two streams of skipped rows, each in file order, as one in file order. */
async function* byLine(a: AsyncGenerator<SkipLine>, b: AsyncGenerator<SkipLine>): AsyncGenerator<SkipLine> {
  let x = await a.next();
  let y = await b.next();
  while (!x.done || !y.done) {
    if (y.done || (!x.done && x.value[0] <= y.value[0])) {
      yield x.value as SkipLine;
      x = await a.next();
    } else {
      yield y.value;
      y = await b.next();
    }
  }
}

/** The CSV columns of a target's skipped list: the line, the file's columns, the holder's id, the reason. */
export function skippedColumns(target: BulkTarget): string[] {
  return ['line', ...target.columns, 'id', 'reason'];
}

/**
 * Writes the full skipped list as formula-safe CSV to `csvPath` and returns the first
 * IMPORT_SKIPPED_SHOWN items as the answer's JSON (§3 Import result), in file order. A row that
 * repeats an earlier one of the file points at the row holding its key now (`holders`).
 */
async function writeSkipped(
  target: BulkTarget,
  files: { early: string; late: string },
  holders: Holders,
  csvPath: string,
): Promise<{ shown: string[]; total: number }> {
  const { key, columns } = target;
  const statusAt = columns.indexOf('status');
  const csv = new ByteFile(csvPath);
  const shown: string[] = [];
  let total = 0;
  try {
    const head = csv.add(`${skippedColumns(target).join(',')}\n`);
    if (head) await head;
    for await (const [line, ref, reason, values, knownId, knownStatus] of byLine(
      skipLines(files.early),
      skipLines(files.late),
    )) {
      const heldId = ref >= 0 ? holders.id(ref) : knownId;
      const id = heldId ? heldId : null;
      const status = (ref >= 0 ? holders.status(ref) : knownStatus) ?? values[statusAt] ?? '';
      total++;
      if (shown.length < IMPORT_SKIPPED_SHOWN) {
        const item: Record<string, unknown> = {
          line,
          number: values[0] ?? '',
          name: values[columns.indexOf('name')] ?? '',
          status,
          id,
          reason,
        };
        if (key === 'value') item.value = values[0] ?? '';
        shown.push(JSON.stringify(item));
      }
      const cells = columns.map((c, i) => (c === 'status' ? status : (values[i] ?? '')));
      const wait = csv.add(`${[line, ...cells, id ?? '', reason].map((v) => csvCell(v)).join(',')}\n`);
      if (wait) await wait;
    }
  } finally {
    await csv.close();
  }
  return { shown, total };
}

/** The skipped rows as the answer gives them. */
export interface SkippedReport {
  /** the first IMPORT_SKIPPED_SHOWN items, as JSON */
  shown: string[];
  /** every row skipped */
  total: number;
  /** the id of the full list in the store (null when nothing was skipped) */
  id: string | null;
}

/**
 * The skipped list of one import: the rows the parse skipped and those the merge found already
 * registered or opted out, in file order, written as CSV under `dir` and kept in `keeper.store` for the
 * importing user alone to download (nothing is kept when no row was skipped).
 */
export async function listSkipped(
  target: BulkTarget,
  staged: StagedFile,
  merged: MergedFiles,
  dir: string,
  keeper: { store: SkippedStore; owner: number },
): Promise<SkippedReport> {
  const csvPath = path.join(dir, 'skipped.csv');
  const { shown, total } = await writeSkipped(
    target,
    { early: staged.skipped.path, late: merged.registered.path },
    merged.holders,
    csvPath,
  );
  return { shown, total, id: total > 0 ? keeper.store.keep(keeper.owner, csvPath) : null };
}
