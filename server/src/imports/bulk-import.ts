import { randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { DEFAULT_IMPORT_TUNING, type ImportTuning } from '@wa/core/config-engine';
import { type Db, type RawTx, withRawTransaction } from '@wa/core/db/client';
import { AppError, badRequest } from '@wa/core/errors';
import { ImportFileError } from '@wa/core/imports/json-stream';
import type { ImportFile } from '@wa/core/imports/records';
import { readRecordBatches } from '@wa/core/imports/records';
import type { ImportSkipped } from '@wa/shared';
import type { BulkTarget } from './bulk-target';
import { ByteFile } from './byte-file';
import { copyLine, copyStream } from './copy-stream';
import { directLoad } from './direct-load';
import { importProfiler } from './profile';
import { writeChunk } from './write-chunk';

export interface BulkOutcome {
  created: number;
  skipped: number;
  /** writes `{created, skipped}` as JSON from the temp files into `out` and ends it, then removes them */
  send(out: Writable): Promise<void>;
  discard(): void;
}

const BATCH = 20_000;
/** every DTO starts with its id, so a created row's JSON is this head, the id, and a tail */
const ID_HEAD = '{"id":0,';

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
  /** appends a batch of items */
  async write(items: string[]) {
    for (const item of items) {
      const wait = this.add(item);
      if (wait) await wait;
    }
  }
  close(): Promise<void> {
    return this.file.close();
  }
}

/**
 * The rows that may be created, as `pos<TAB>json-tail` lines written while the file is parsed:
 * once the ids are known, each line becomes `{"id":N,<tail>`, without reading rows back.
 */
class CandidateFile {
  private readonly file: ByteFile;
  constructor(dir: string) {
    this.file = new ByteFile(path.join(dir, 'candidates.txt'));
  }
  get path() {
    return this.file.path;
  }
  /** appends a line; returns a promise only when the caller must wait for the disk */
  add(pos: number, tail: string): Promise<void> | undefined {
    return this.file.add(`${pos}\t${tail}\n`);
  }
  close(): Promise<void> {
    return this.file.close();
  }
  async *lines(): AsyncGenerator<{ pos: number; tail: string }[]> {
    let rest = '';
    for await (const chunk of createReadStream(this.path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
      const text = rest + (chunk as string);
      const parts = text.split('\n');
      rest = parts.pop() ?? '';
      yield parts.map((line) => {
        const tab = line.indexOf('\t');
        return { pos: Number(line.slice(0, tab)), tail: line.slice(tab + 1) };
      });
    }
  }
}

async function pipeInto(res: Writable, file: string) {
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    if (res.destroyed) return;
    await writeChunk(res, chunk as Buffer);
  }
}

/** whether a target's DTO JSON starts with `{"id":0,` so candidate lines can be completed by id */
function idHeadFits(target: BulkTarget): boolean {
  const sample = target.columns.map(() => 'x');
  return JSON.stringify(target.toDto(0, sample)).startsWith(ID_HEAD);
}

/** One row of the staging table: file position, the target's columns, and why it is skipped. */
type StagedRow = { pos: number; values: string[]; reason: string | null; key: string | null };

/** Fills the session's staging table: COPY on PostgreSQL, `unnest` batches on PGlite. */
function stagingWriter(tx: RawTx, columns: readonly string[], rowsT: string) {
  const names = ['pos', ...columns, 'reason', 'k'];
  if (tx.copyFrom) {
    const copy = copyStream({ ...tx, copyFrom: tx.copyFrom }, `copy ${rowsT} (${names.join(', ')}) from stdin`);
    return {
      abort: copy.abort,
      add: (r: StagedRow) => copy.push(copyLine(r.pos, [...r.values, r.reason, r.key])),
      end: copy.end,
    };
  }
  let batch: StagedRow[] = [];
  const types = names.map((n) => (n === 'pos' ? 'int[]' : 'text[]'));
  const insert = `insert into ${rowsT} (${names.join(', ')}) select * from unnest(${types
    .map((t, i) => `$${i + 1}::${t}`)
    .join(', ')})`;
  const flushBatch = async () => {
    if (!batch.length) return;
    const rowsIn = batch;
    batch = [];
    await tx.query(insert, [
      rowsIn.map((r) => r.pos),
      ...columns.map((_, c) => rowsIn.map((r) => r.values[c] ?? '')),
      rowsIn.map((r) => r.reason),
      rowsIn.map((r) => r.key),
    ]);
  };
  return {
    abort(_err: Error) {
      batch = [];
    },
    add(r: StagedRow): Promise<void> | undefined {
      batch.push(r);
      return batch.length >= BATCH ? flushBatch() : undefined;
    },
    end: flushBatch,
  };
}

/** Reads a query through an SQL cursor, BATCH rows at a time (works on PGlite and PostgreSQL). */
async function* cursorRows<T>(tx: RawTx, name: string, text: string): AsyncGenerator<T[]> {
  await tx.query(`declare ${name} no scroll cursor for ${text}`);
  try {
    for (;;) {
      const batch = await tx.query<T>(`fetch ${BATCH} from ${name}`);
      if (!batch.length) return;
      yield batch;
    }
  } finally {
    await tx.query(`close ${name}`);
  }
}

/**
 * Imports a CSV or JSON file into `target` in one transaction: rows that are not valid, repeat
 * an earlier row of the file, or already exist are skipped with a reason; the rest are inserted
 * in file order. The parsed rows go through a temporary staging table (COPY on PostgreSQL), the
 * existing keys are removed from it with one join, and the rest is inserted with one statement.
 * Memory holds only the keys seen (for in-file duplicates); the created and skipped rows are
 * read back through cursors into temp files under `tmpRoot` and streamed back by `send`.
 */
export async function bulkImport(
  db: Db,
  target: BulkTarget,
  file: ImportFile,
  tmpRoot: string,
  tuning: ImportTuning = DEFAULT_IMPORT_TUNING,
): Promise<BulkOutcome> {
  const dir = path.join(tmpRoot, `import-${Date.now()}-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  const created = new ItemFile(dir, 'created.json');
  const candidates = new CandidateFile(dir);
  const skipped = new ItemFile(dir, 'skipped.json');
  const discard = () => rmSync(dir, { recursive: true, force: true });
  const { table, key, columns } = target;
  const cols = columns.join(', ');
  const valueCols = columns.map((c) => `i.${c}`).join(', ');

  const mark = importProfiler(tuning.profile);
  try {
    await withRawTransaction(db, async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [target.lockKey]);
      // a small table: its keys fit in memory and the file loads straight in
      if (await directLoad(tx, target, file, { created, skipped }, mark, tuning)) return;
      // scratch tables for this import: unlogged on PostgreSQL (shared buffers, no WAL; a temp
      // table spills past temp_buffers), temporary on PGlite; created and dropped in this
      // transaction, so a crash leaves nothing behind
      const tag = randomBytes(4).toString('hex');
      const rowsT = `import_rows_${tag}`;
      const dupsT = `import_dups_${tag}`;
      const scratch = tx.kind === 'postgres' ? 'unlogged' : 'temp';
      await tx.query(
        `create ${scratch} table ${rowsT} (pos int not null, ${columns.map((c) => `${c} text`).join(', ')}, reason text, k text)`,
      );
      const staging = stagingWriter(tx, columns, rowsT);
      const seen = new Set<string>();
      let records = 0;
      let fresh = 0;
      const raw = (fields: Record<string, string>) => columns.map((c) => fields[c] ?? '');
      try {
        for await (const recs of readRecordBatches(file, columns))
          for (const rec of recs) {
            records++;
            if (rec.error) {
              await staging.add({ pos: records, values: raw(rec.fields), reason: rec.error, key: null });
              continue;
            }
            const norm = target.normalize(rec.fields);
            if ('reason' in norm) {
              await staging.add({ pos: records, values: raw(rec.fields), reason: norm.reason, key: null });
              continue;
            }
            const k = norm.values[0] ?? '';
            if (seen.has(k)) {
              await staging.add({ pos: records, values: norm.values, reason: 'Duplicate in file', key: k });
              continue;
            }
            seen.add(k);
            fresh++;
            const tail = JSON.stringify(target.toDto(0, norm.values));
            const wait = candidates.add(records, tail.startsWith(ID_HEAD) ? tail.slice(ID_HEAD.length) : tail);
            if (wait) await wait;
            const staged = staging.add({ pos: records, values: norm.values, reason: null, key: null });
            if (staged) await staged;
          }
      } catch (err) {
        staging.abort(err instanceof Error ? err : new Error(String(err)));
        throw err;
      }
      await staging.end();
      mark('staged');
      seen.clear();
      if (records === 0) throw badRequest('The file is empty.');

      // rows whose key is registered already leave the staging table and become skips
      await tx.query(`analyze ${rowsT}`);
      await tx.query(
        `create ${scratch} table ${dupsT} as
           select i.pos, ${valueCols}, p.id as dup_id, p.status as dup_status
           from ${rowsT} i join ${table} p on p.${key} = i.${key} where false`,
      );
      const dups = await tx.query<{ n: number }>(
        `with d as (
           delete from ${rowsT} i using ${table} p
           where i.reason is null and p.${key} = i.${key}
           returning i.pos, ${valueCols}, p.id as dup_id, p.status as dup_status
         ), ins as (insert into ${dupsT} select * from d returning 1)
         select count(*)::int as n from ins`,
      );
      fresh -= dups[0]?.n ?? 0;
      mark('dups removed');

      // a large load into a smaller table: heap first, then the secondary indexes in one pass each
      const rebuild: string[] = [];
      if (fresh >= tuning.rebuildMinRows) {
        const [{ n: existing } = { n: 0 }] = await tx.query<{ n: number }>(`select count(*)::int as n from ${table}`);
        if (fresh > existing) {
          const idx = await tx.query<{ indexname: string; indexdef: string }>(
            `select indexname, indexdef from pg_indexes where schemaname = 'public' and tablename = $1
               and indexname not in (select conname from pg_constraint where conrelid = $1::regclass)`,
            [table],
          );
          for (const i of idx) {
            await tx.query(`drop index "${i.indexname}"`);
            rebuild.push(i.indexdef);
          }
          if (tx.kind === 'postgres') await tx.query(`set local maintenance_work_mem = '256MB'`);
        }
      }
      // statement triggers with transition tables would copy every new row once more: a large
      // load (which holds the table exclusively already) counts its rows into table_stats itself
      const ownStats = rebuild.length > 0;
      if (ownStats) await tx.query(`alter table ${table} disable trigger ${table}_stats_insert`);
      let ins: { lo: number | null; hi: number | null; n: number } = { lo: null, hi: null, n: 0 };
      if (fresh) {
        await tx.query(`insert into ${table} (${cols}) select ${cols} from ${rowsT} where reason is null order by pos`);
        // under the lock nobody else takes ids: they are the last `fresh` of the sequence, if contiguous
        const [seq] = await tx.query<{ hi: string }>(
          `select currval(pg_get_serial_sequence('${table}', 'id'))::text as hi`,
        );
        const hi = Number(seq?.hi ?? 0);
        const [r] = await tx.query<{ n: number }>(
          `select count(*)::int as n from ${table} where id between $1 and $2`,
          [hi - fresh + 1, hi],
        );
        ins = { lo: hi - fresh + 1, hi, n: r?.n === fresh ? fresh : -1 };
      }
      if (ownStats) {
        await tx.query(`alter table ${table} enable trigger ${table}_stats_insert`);
        await tx.query(`update table_stats set row_count = row_count + $1, version = version + 1 where name = $2`, [
          fresh,
          table,
        ]);
      }
      mark('inserted');
      for (const def of rebuild) await tx.query(def);
      mark('indexed');

      // created rows, in file order; ids are contiguous under the lock, else they are looked up
      await candidates.close();
      // ids are contiguous when every id of the range belongs to this insert (checked by count)
      const contiguous = ins.n === fresh;
      if (contiguous && idHeadFits(target)) {
        const dupPos = new Set<number>();
        for await (const batch of cursorRows<{ pos: number }>(tx, 'import_dup_pos', `select pos from ${dupsT}`)) {
          for (const d of batch) dupPos.add(d.pos);
        }
        let nextId = ins.lo ?? 0;
        for await (const lines of candidates.lines()) {
          const out: string[] = [];
          for (const l of lines) if (!dupPos.has(l.pos)) out.push(`{"id":${nextId++},${l.tail}`);
          await created.write(out);
        }
      } else {
        const createdSql = `select p.id, ${valueCols} from ${rowsT} i join ${table} p on p.${key} = i.${key}
             where i.reason is null order by i.pos`;
        for await (const batch of cursorRows<Record<string, unknown>>(tx, 'import_created', createdSql)) {
          await created.write(
            batch.map((r) =>
              JSON.stringify(
                target.toDto(
                  Number(r.id),
                  columns.map((c) => String(r[c] ?? '')),
                ),
              ),
            ),
          );
        }
      }
      mark('created written');
      // skipped rows, in file order: invalid rows and in-file duplicates (pointing at the row that
      // holds their key now), then the ones already registered
      const skippedSql = `
        select s.pos, ${columns.map((c) => `s.${c}`).join(', ')}, s.reason, p.id as dup_id, p.status as dup_status
          from ${rowsT} s left join ${table} p on s.k is not null and p.${key} = s.k
          where s.reason is not null
        union all
        select d.pos, ${columns.map((c) => `d.${c}`).join(', ')}, 'Already registered', d.dup_id, d.dup_status
          from ${dupsT} d
        order by pos`;
      for await (const batch of cursorRows<Record<string, unknown>>(tx, 'import_skipped', skippedSql)) {
        await skipped.write(
          batch.map((r) => {
            const item: ImportSkipped = {
              number: String(r[key] ?? ''),
              name: String(r.name ?? ''),
              status: String(r.dup_status ?? r.status ?? ''),
              id: r.dup_id === null || r.dup_id === undefined ? null : Number(r.dup_id),
              reason: String(r.reason ?? ''),
            };
            if (key === 'value') (item as unknown as Record<string, unknown>).value = String(r.value ?? '');
            return JSON.stringify(item);
          }),
        );
      }
      await tx.query(`drop table ${rowsT}, ${dupsT}`);
      mark('skipped written');
    });
    mark('committed');
  } catch (err) {
    await candidates.close().catch(() => {});
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
    send: async (res: Writable) => {
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
