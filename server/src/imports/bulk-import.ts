import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, rmSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import type { ImportSkipped } from '@wa/shared';
import { sql } from 'drizzle-orm';
import type { Response } from 'express';
import { type Db, rows } from '../db/client';
import { AppError, badRequest } from '../http/errors';
import { writeChunk } from '../http/stream';
import { ImportFileError } from './json-stream';
import { readRecords } from './records';
import type { ImportFile } from './upload';

/** What one target table needs from the importer. Identifiers are constants, never user input. */
export interface BulkTarget {
  table: 'phone_numbers' | 'proxies';
  /** the unique column that decides duplicates */
  key: 'number' | 'value';
  /** the columns read from the file and inserted, key first */
  columns: readonly string[];
  /** advisory lock taken by every writer that inserts into the table */
  lockKey: number;
  /** turns a record's fields into the row to insert (key first), or the reason to skip it */
  normalize(fields: Record<string, string>): { values: string[] } | { reason: string };
  /** the API shape of a created row */
  toDto(id: number, values: string[]): Record<string, unknown>;
}

export interface BulkOutcome {
  created: number;
  skipped: number;
  /** streams `{created, skipped}` as JSON from the temp files, then removes them */
  send(res: Response): Promise<void>;
  discard(): void;
}

const BATCH = 20_000;

/** A temp file of JSON items separated by commas, ready to be sent as the inside of an array. */
class ItemFile {
  readonly path: string;
  private readonly out: WriteStream;
  count = 0;
  constructor(dir: string, name: string) {
    this.path = path.join(dir, name);
    this.out = createWriteStream(this.path);
  }
  /** writes a batch of items in one go */
  async write(items: string[]) {
    if (!items.length) return;
    const text = (this.count ? ',' : '') + items.join(',');
    this.count += items.length;
    if (!this.out.write(text)) await new Promise<void>((r) => this.out.once('drain', () => r()));
  }
  close(): Promise<void> {
    return new Promise((resolve, reject) => this.out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
}

async function pipeInto(res: Response, file: string) {
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    if (res.destroyed) return;
    await writeChunk(res, chunk as Buffer);
  }
}

/**
 * Imports a CSV or JSON file into `target` in one transaction: rows that are not valid, repeat
 * an earlier row of the file, or already exist are skipped with a reason; the rest are inserted
 * in file order. Memory holds only the keys seen (for in-file duplicates) and one batch; the
 * created and skipped rows go to temp files under `tmpRoot` and are streamed back by `send`.
 */
export async function bulkImport(db: Db, target: BulkTarget, file: ImportFile, tmpRoot: string): Promise<BulkOutcome> {
  const dir = path.join(tmpRoot, `import-${Date.now()}-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  const created = new ItemFile(dir, 'created.json');
  const skipped = new ItemFile(dir, 'skipped.json');
  const discard = () => rmSync(dir, { recursive: true, force: true });
  let records = 0;

  const skipItem = (
    values: Partial<Record<string, string>>,
    reason: string,
    id: number | null = null,
    status?: string,
  ) => {
    const item: ImportSkipped = {
      number: values[target.key] ?? '',
      name: values.name ?? '',
      status: status ?? values.status ?? '',
      id,
      reason,
    };
    if (target.key === 'value') (item as unknown as Record<string, unknown>).value = values.value ?? '';
    return item;
  };
  // skips of the current batch, by position in the file, so the skipped list keeps file order
  let pendingSkips: { pos: number; item: ImportSkipped; key?: string }[] = [];
  const skip = (pos: number, ...args: Parameters<typeof skipItem>) => {
    pendingSkips.push({ pos, item: skipItem(...args) });
  };

  const tbl = sql.raw(target.table);
  const key = sql.raw(target.key);
  const cols = sql.raw(target.columns.join(', '));
  const unnestArgs = (batch: string[][]) =>
    sql.join(
      target.columns.map((_, c) => sql`${sql.param(batch.map((r) => r[c]))}::text[]`),
      sql`, `,
    );

  /** In-file duplicates point at the row that holds their number: found or inserted by now. */
  const resolveOwners = async (tx: Db, skips: { item: ImportSkipped; key?: string }[]) => {
    const keys = skips.filter((s) => s.key !== undefined).map((s) => s.key as string);
    if (!keys.length) return;
    const found = await rows<{ id: number; k: string; status: string }>(
      tx,
      sql`select id, ${key} as k, status from ${tbl} where ${key} = any(${sql.param(keys)}::text[])`,
    );
    const byKey = new Map(found.map((f) => [f.k, f]));
    for (const s of skips) {
      const f = s.key === undefined ? undefined : byKey.get(s.key);
      if (f) {
        s.item.id = f.id;
        s.item.status = f.status;
      }
    }
  };

  try {
    await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${target.lockKey})`);
      const seen = new Set<string>();
      let batch: string[][] = [];
      let positions: number[] = [];

      const flush = async () => {
        const skips = pendingSkips;
        pendingSkips = [];
        if (!batch.length) {
          await resolveOwners(tx, skips);
          await skipped.write(skips.map((s) => JSON.stringify(s.item)));
          return;
        }
        const rowsIn = batch;
        const rowPos = positions;
        batch = [];
        positions = [];
        // probe by index for rows that exist already, then insert the rest in file order
        const found = await rows<{ id: number; k: string; status: string }>(
          tx,
          sql`select id, ${key} as k, status from ${tbl} where ${key} = any(${sql.param(rowsIn.map((r) => r[0]))}::text[])`,
        );
        const dups = new Map<string, [number, string]>();
        for (const f of found) dups.set(f.k, [f.id, f.status]);
        const fresh = rowsIn.filter((r) => !dups.has(r[0]));
        const [res] = fresh.length
          ? await rows<{ lo: number | null; hi: number | null; n: number }>(
              tx,
              sql`with ins as (
                    insert into ${tbl} (${cols})
                    select ${cols} from unnest(${unnestArgs(fresh)}) with ordinality as u(${cols}, ord)
                    order by ord
                    returning id
                  )
                  select min(id) as lo, max(id) as hi, count(*)::int as n from ins`,
            )
          : [{ lo: null, hi: null, n: 0 }];
        let ids: number[] | null = null;
        if (res.n !== fresh.length) throw new Error(`import inserted ${res.n} rows, expected ${fresh.length}`);
        if (res.n && (res.hi ?? 0) - (res.lo ?? 0) + 1 !== res.n) {
          // ids not contiguous (should not happen under the lock): look them up
          const found = await rows<{ id: number; k: string }>(
            tx,
            sql`select id, ${key} as k from ${tbl} where ${key} = any(${sql.param(fresh.map((r) => r[0]))}::text[])`,
          );
          const byKey = new Map(found.map((f) => [f.k, f.id]));
          ids = fresh.map((r) => byKey.get(r[0]) ?? 0);
        }
        rowsIn.forEach((r, i) => {
          const d = dups.get(r[0]);
          if (d) {
            const values: Record<string, string> = {};
            target.columns.forEach((c, k) => {
              values[c] = r[k];
            });
            skips.push({ pos: rowPos[i], item: skipItem(values, 'Already registered', d[0], d[1]) });
          }
        });
        skips.sort((a, b) => a.pos - b.pos);
        const lo = res.lo ?? 0;
        await created.write(fresh.map((r, k) => JSON.stringify(target.toDto(ids ? ids[k] : lo + k, r))));
        await resolveOwners(tx, skips);
        await skipped.write(skips.map((s) => JSON.stringify(s.item)));
      };

      for await (const rec of readRecords(file, target.columns)) {
        records++;
        if (rec.error) {
          skip(records, rec.fields, rec.error);
          continue;
        }
        const norm = target.normalize(rec.fields);
        if ('reason' in norm) {
          skip(records, rec.fields, norm.reason);
          continue;
        }
        const k = norm.values[0];
        if (seen.has(k)) {
          const values: Record<string, string> = {};
          target.columns.forEach((c, i) => {
            values[c] = norm.values[i];
          });
          skip(records, values, 'Duplicate in file');
          pendingSkips[pendingSkips.length - 1].key = k;
          continue;
        }
        seen.add(k);
        batch.push(norm.values);
        positions.push(records);
        if (batch.length >= BATCH || pendingSkips.length >= BATCH) await flush();
      }
      if (records === 0) throw badRequest('The file is empty.');
      await flush();
    });
  } catch (err) {
    await created.close().catch(() => {});
    await skipped.close().catch(() => {});
    discard();
    if (err instanceof ImportFileError) throw badRequest(err.message);
    if (err instanceof AppError) throw err;
    const e = err as { code?: string };
    if (e?.code === 'ERR_STREAM_PREMATURE_CLOSE') throw badRequest('The upload was cut off.');
    throw err;
  }
  await created.close();
  await skipped.close();

  return {
    created: created.count,
    skipped: skipped.count,
    discard,
    send: async (res: Response) => {
      res.status(200).type('application/json');
      try {
        await writeChunk(res, '{"created":[');
        await pipeInto(res, created.path);
        await writeChunk(res, '],"skipped":[');
        await pipeInto(res, skipped.path);
        await writeChunk(res, `],"total":${created.count},"totalSkipped":${skipped.count}}`);
        res.end();
      } finally {
        discard();
      }
    },
  };
}
