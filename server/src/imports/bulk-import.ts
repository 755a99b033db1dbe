import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_IMPORT_TUNING, type ImportTuning } from '@wa/core/config-engine';
import type { Db } from '@wa/core/db/client';
import { AppError, badRequest } from '@wa/core/errors';
import { ImportFileError } from '@wa/core/imports/json-stream';
import type { ImportFile } from '@wa/core/imports/records';
import { type BulkOutcome, importAnswer } from './answer';
import type { BulkTarget } from './bulk-target';
import { mergeCandidates } from './merge';
import { importProfiler } from './profile';
import { listSkipped } from './skipped-list';
import type { SkippedStore } from './skipped-store';
import { refuseNothingToImport, stageFile } from './stage';

export type { BulkOutcome } from './answer';

/** Where an import keeps its scratch files and whose skipped list it leaves behind. */
export interface BulkImportContext {
  tmpRoot: string;
  store: SkippedStore;
  /** the importing user: the only one who may download the skipped list */
  owner: number;
  tuning?: ImportTuning;
}

/** A directory of its own for one import's temp files, and the way to remove them all. */
function workDir(tmpRoot: string): { dir: string; discard: () => void } {
  const dir = path.join(tmpRoot, `import-${Date.now()}-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  return { dir, discard: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * What the importer is told when a phase fails: the upload's own faults (a broken JSON file, a
 * body cut off mid-read) as a 400 with their message, refusals as they are, anything else as it is.
 */
function asRefusal(err: unknown): unknown {
  if (err instanceof ImportFileError) return badRequest(err.message);
  if (err instanceof AppError) return err;
  const e = err as { code?: string };
  if (e?.code === 'ERR_STREAM_PREMATURE_CLOSE') return badRequest('The upload was cut off.');
  return err;
}

/**
 * Imports a CSV or JSON file into `target` in phases, so that blasts, which update the same
 * table's rows all the time, never wait on it:
 * 1. parse (`stageFile`, stage.ts): the upload is read to the end into temp files with no database
 *    work at all, so a client that stalls or disconnects holds nothing but those files; a file with
 *    no row to import is refused with a 400 here, before the database is asked anything;
 * 2. merge (`mergeCandidates`, merge.ts): the valid rows are inserted in chunks, each its own short
 *    transaction: plain INSERT … ON CONFLICT with the indexes kept, no table lock stronger than a
 *    row update's, no advisory lock; duplicates are judged within the target's scope (the pool, or
 *    one campaign's targets);
 * 3. report: the skipped rows (unreadable, invalid, repeated in the file, already registered,
 *    opted out where the target suppresses opt-outs) in file order with their line and reason, all
 *    of them as a CSV in `ctx.store` for the importing user (`listSkipped`, skipped-list.ts), and the
 *    answer that lists the created rows and the first IMPORT_SKIPPED_SHOWN skipped ones
 *    (`importAnswer`, answer.ts), sent by the caller.
 * Each phase hands the next one files, not rows, so memory holds no more than a chunk of rows.
 * A failed phase removes every temp file; the chunks merged before it stay (a re-import skips them).
 */
export async function bulkImport(
  db: Db,
  target: BulkTarget,
  file: ImportFile,
  ctx: BulkImportContext,
): Promise<BulkOutcome> {
  const tuning = ctx.tuning ?? DEFAULT_IMPORT_TUNING;
  const { dir, discard } = workDir(ctx.tmpRoot);
  const mark = importProfiler(tuning.profile);
  try {
    const staged = await stageFile(file, target, dir, mark);
    refuseNothingToImport(staged, target);
    const merged = await mergeCandidates(db, target, staged.candidates, dir, tuning.chunkRows, mark);
    const skipped = await listSkipped(target, staged, merged, dir, ctx);
    mark('skipped written');
    return importAnswer(merged.created, skipped, discard);
  } catch (err) {
    discard();
    throw asRefusal(err);
  }
}
