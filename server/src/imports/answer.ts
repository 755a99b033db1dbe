import { createReadStream } from 'node:fs';
import type { Writable } from 'node:stream';
import type { SkippedReport } from './skipped-list';
import { writeChunk } from './write-chunk';

/** A finished import: its counts for the caller, and its answer still on disk until it is sent. */
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

/** Copies a file into the answer a MB at a time, waiting for the client (none left: stops). */
async function pipeInto(res: Writable, file: string) {
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    if (res.destroyed) return;
    await writeChunk(res, chunk as Buffer);
  }
}

/**
 * The answer of an import (§3 Import result), streamed rather than built: the created rows are
 * sent from the merge's file as they are, so a million of them never sit in memory as objects or
 * one string. The temp files under the import's directory go with `discard`, once sent or when
 * the caller gives up on sending.
 */
export function importAnswer(
  created: { path: string; count: number },
  skipped: SkippedReport,
  discard: () => void,
): BulkOutcome {
  return {
    created: created.count,
    skipped: skipped.total,
    skippedId: skipped.id,
    discard,
    send: async (res: Writable) => {
      try {
        await writeChunk(res, '{"created":[');
        await pipeInto(res, created.path);
        await writeChunk(res, `],"skipped":[${skipped.shown.join(',')}],"total":${created.count},`);
        await writeChunk(
          res,
          `"totalSkipped":${skipped.total},"skipped_total":${skipped.total},"skipped_id":${JSON.stringify(skipped.id)}}`,
        );
        res.end();
      } finally {
        discard();
      }
    },
  };
}
