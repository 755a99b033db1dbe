import { randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { DEFAULT_IMPORT_TUNING, type ImportTuning } from '@wa/core/config-engine';
import type { Db } from '@wa/core/db/client';
import { AppError, badRequest } from '@wa/core/errors';
import { ImportFileError } from '@wa/core/imports/json-stream';
import type { ImportFile } from '@wa/core/imports/records';
import type { BulkTarget } from './bulk-target';
import { ByteFile } from './byte-file';
import { mergeCandidates } from './merge';
import { importProfiler } from './profile';
import { writeSkipped } from './skipped-list';
import type { SkippedStore } from './skipped-store';
import { stageFile } from './stage';
import { writeChunk } from './write-chunk';

export interface BulkOutcome {
  created: number;
  /** every row skipped (the answer lists the first IMPORT_SKIPPED_SHOWN) */
  skipped: number;
  /** the id of the full skipped list in the store (null when nothing was skipped) */
  skippedId: string | null;
  /** writes the answer as JSON into `out` and ends it, then removes the temp files */
  send(out: Writable): Promise<void>;
  discard(): void;
}

/** Where an import keeps its scratch files and whose skipped list it leaves behind. */
export interface BulkImportContext {
  tmpRoot: string;
  store: SkippedStore;
  /** the importing user: the only one who may download the skipped list */
  owner: number;
  tuning?: ImportTuning;
}

/** A temp file of JSON items separated by commas, ready to be sent as the inside of an array. */
export class ItemFile {
  private readonly file: ByteFile;
  count = 0;
  constructor(dir: string, name: string) {
    this.file = new ByteFile(path.join(dir, name));
  }
  get path() {
    return this.file.path;
  }
  /** appends one item; returns a promise only when the caller must wait for the disk */
  add(item: string): Promise<void> | undefined {
    return this.file.add(this.count++ ? `,${item}` : item);
  }
  close(): Promise<void> {
    return this.file.close();
  }
}

async function pipeInto(res: Writable, file: string) {
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    if (res.destroyed) return;
    await writeChunk(res, chunk as Buffer);
  }
}

/**
 * Imports a CSV or JSON file into `target` in three phases, so that blasts, which update the
 * same table's rows all the time, never wait on it:
 * 1. the upload is parsed to the end into temp files (`stageFile`), with no database work at all:
 *    a client that stalls or disconnects holds nothing but those files;
 * 2. the valid rows are inserted in chunks, each its own short transaction (`mergeCandidates`):
 *    plain INSERT … ON CONFLICT with the indexes kept, no table lock stronger than a row
 *    update's, no advisory lock;
 * 3. the skipped rows (unreadable, invalid, repeated in the file, already registered) are listed
 *    in file order with their line and reason: the first IMPORT_SKIPPED_SHOWN in the answer, all
 *    of them as a CSV in `ctx.store` for the importing user.
 * A file without any row to import (empty, or nothing valid in it) is refused with a 400.
 */
export async function bulkImport(
  db: Db,
  target: BulkTarget,
  file: ImportFile,
  ctx: BulkImportContext,
): Promise<BulkOutcome> {
  const tuning = ctx.tuning ?? DEFAULT_IMPORT_TUNING;
  const dir = path.join(ctx.tmpRoot, `import-${Date.now()}-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  const discard = () => rmSync(dir, { recursive: true, force: true });
  const mark = importProfiler(tuning.profile);
  const created = new ItemFile(dir, 'created.json');
  const late = new ByteFile(path.join(dir, 'skipped-late.jsonl'));
  let shown: string[];
  let skippedTotal: number;
  let skippedId: string | null = null;
  try {
    const staged = await stageFile(file, target, dir, mark);
    if (staged.records === 0) throw badRequest('The file is empty.');
    if (staged.candidates.count === 0) {
      const first = staged.firstSkip;
      throw badRequest(
        `The file has no valid ${target.label}: ${staged.records} ${staged.records === 1 ? 'row' : 'rows'} skipped` +
          (first ? ` (line ${first.line}: ${first.reason}).` : '.'),
      );
    }
    const merged = await mergeCandidates(
      db,
      target,
      staged.candidates,
      { created, skipped: late },
      tuning.chunkRows,
      mark,
    ).finally(() => Promise.all([created.close(), late.close()]));
    const csvPath = path.join(dir, 'skipped.csv');
    ({ shown, total: skippedTotal } = await writeSkipped(
      target,
      { early: staged.skipped.path, late: late.path },
      merged.holders,
      csvPath,
    ));
    if (skippedTotal > 0) skippedId = ctx.store.keep(ctx.owner, csvPath);
    mark('skipped written');
  } catch (err) {
    await created.close().catch(() => {});
    await late.close().catch(() => {});
    discard();
    if (err instanceof ImportFileError) throw badRequest(err.message);
    if (err instanceof AppError) throw err;
    const e = err as { code?: string };
    if (e?.code === 'ERR_STREAM_PREMATURE_CLOSE') throw badRequest('The upload was cut off.');
    throw err;
  }

  return {
    created: created.count,
    skipped: skippedTotal,
    skippedId,
    discard,
    send: async (res: Writable) => {
      try {
        await writeChunk(res, '{"created":[');
        await pipeInto(res, created.path);
        await writeChunk(res, `],"skipped":[${shown.join(',')}],"total":${created.count},`);
        await writeChunk(
          res,
          `"totalSkipped":${skippedTotal},"skipped_total":${skippedTotal},"skipped_id":${JSON.stringify(skippedId)}}`,
        );
        res.end();
      } finally {
        discard();
      }
    },
  };
}
