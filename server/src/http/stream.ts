import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { csvCell } from '@wa/shared';
import type { Response } from 'express';
import { writeChunk } from '../imports/write-chunk';

/**
 * Streams rows as a download, CSV (with a header) or a JSON array, fetching them page by page
 * from `next(afterId)` so a million rows never sit in memory.
 */
export async function streamDownload<T extends { id: number }>(
  res: Response,
  opts: {
    format: 'csv' | 'json';
    filename: string;
    columns: readonly string[];
    next: (afterId: number) => Promise<T[]>;
    pick: (row: T) => Record<string, unknown>;
  },
): Promise<void> {
  res.status(200);
  res.setHeader('Content-Disposition', `attachment; filename="${opts.filename}"`);
  res.type(opts.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json');
  if (opts.format === 'csv') await writeChunk(res, `${opts.columns.join(',')}\n`);
  else await writeChunk(res, '[');
  let after = 0;
  let first = true;
  for (;;) {
    const page = await opts.next(after);
    if (!page.length || res.destroyed) break;
    let out = '';
    for (const row of page) {
      const o = opts.pick(row);
      if (opts.format === 'csv') out += `${opts.columns.map((c) => csvCell(o[c])).join(',')}\n`;
      else {
        out += `${first ? '' : ','}${JSON.stringify(o)}`;
        first = false;
      }
    }
    await writeChunk(res, out);
    after = page[page.length - 1].id;
  }
  if (opts.format === 'json') await writeChunk(res, ']');
  res.end();
}

/** Streams a CSV file already written (an import's skipped list) as a download named `filename`. */
export async function sendCsv(res: Response, file: { stream: Readable; filename: string }): Promise<void> {
  res.status(200);
  res.setHeader('Content-Disposition', `attachment; filename="${file.filename}"`);
  res.type('text/csv; charset=utf-8');
  await pipeline(file.stream, res);
}
