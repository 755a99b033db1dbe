import type { ImportTuning } from '@wa/core/config-engine';
import type { RawTx } from '@wa/core/db/client';
import { badRequest } from '@wa/core/errors';
import type { ImportFile } from '@wa/core/imports/records';
import { readRecordBatches } from '@wa/core/imports/records';
import type { ImportSkipped } from '@wa/shared';
import type { BulkTarget } from './bulk-target';
import { copyLine, copyStream } from './copy-stream';
import { KeyTable } from './key-table';

/** bytes per row assumed when planning from the upload's size */
const BYTES_PER_ROW = 40;
const BATCH = 20_000;
/** bytes of COPY text held per PGlite batch */
const BATCH_BYTES = 4 << 20;

interface Sink {
  add(item: string): Promise<void> | undefined;
}

/** Rows with their ids into the target table: COPY FROM STDIN on PostgreSQL, COPY from a blob per batch on PGlite. */
function tableWriter(tx: RawTx, table: string, columns: readonly string[]) {
  const names = ['id', ...columns];
  if (tx.copyFrom) {
    const copy = copyStream({ ...tx, copyFrom: tx.copyFrom }, `copy ${table} (${names.join(', ')}) from stdin`);
    return { add: (id: number, values: string[]) => copy.push(copyLine(id, values)), end: copy.end, abort: copy.abort };
  }
  // PGlite: COPY from an in-memory file per batch (faster there than `unnest` arrays). Each line is
  // encoded into the batch's bytes at once, so its strings die young instead of being promoted to
  // the old generation with a 20k-line rope (which grew the heap by ~150 MB per import).
  const copyBlob = tx.copyBlob;
  if (!copyBlob) throw new Error('no bulk path for this database');
  const copySql = `copy ${table} (${names.join(', ')}) from '/dev/blob'`;
  let bytes = Buffer.allocUnsafe(BATCH_BYTES);
  let used = 0;
  let count = 0;
  const flush = async () => {
    if (!count) return;
    const data = bytes.subarray(0, used);
    used = 0;
    count = 0;
    // the blob copies the bytes as it is made, so the buffer is reused by the next batch
    await copyBlob(copySql, data);
  };
  return {
    add(id: number, values: string[]): Promise<void> | undefined {
      const line = copyLine(id, values);
      const need = Buffer.byteLength(line);
      if (used + need > bytes.length) {
        // a line longer than a batch gets a buffer of its own size
        const next = Buffer.allocUnsafe(Math.max(bytes.length, used + need));
        bytes.copy(next, 0, 0, used);
        bytes = next;
      }
      used += bytes.write(line, used);
      count++;
      return count >= BATCH || used > BATCH_BYTES - (64 << 10) ? flush() : undefined;
    },
    end: flush,
    abort(_err: Error) {
      used = 0;
      count = 0;
    },
  };
}

/**
 * Loads an import straight into a small table (at most `tuning.directMaxExisting` rows): its keys are read
 * into memory first, so every row of the file is decided while it is parsed (created with an id
 * reserved from the sequence, or skipped with its reason and the row that holds its key) and the
 * new rows stream into the table with COPY. For a load larger than the table, the secondary
 * indexes are dropped first and rebuilt once at the end. Runs inside the import's transaction,
 * under the target's advisory lock. Returns null when the table is too large for this path.
 */
export async function directLoad(
  tx: RawTx,
  target: BulkTarget,
  file: ImportFile,
  out: { created: Sink; skipped: Sink },
  mark: (what: string) => void,
  tuning: ImportTuning,
): Promise<{ records: number } | null> {
  const { table, key, columns } = target;
  const [stats] = await tx.query<{ n: number }>(`select row_count::int as n from table_stats where name = $1`, [table]);
  const existing = stats?.n ?? 0;
  if (existing > tuning.directMaxExisting) return null;

  // key → id * 8 + status index * 2 + (seen in this file ? 1 : 0): one number per key keeps it small
  const statuses: string[] = [];
  const statusIndex = (s: string) => {
    let i = statuses.indexOf(s);
    if (i < 0) i = statuses.push(s) - 1;
    return i;
  };
  const keys = new KeyTable();
  const have = await tx.query<{ id: number; k: string; status: string }>(
    `select id, ${key} as k, status from ${table}`,
  );
  for (const r of have) keys.set(r.k, r.id * 8 + statusIndex(r.status) * 2);
  mark('keys loaded');

  const estimate = file.bytes ? Math.floor(file.bytes / BYTES_PER_ROW) : 0;
  const rebuild: string[] = [];
  const large = estimate >= tuning.rebuildMinRows && estimate > existing;
  if (large) {
    const idx = await tx.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes where schemaname = 'public' and tablename = $1
         and indexname not in (select conname from pg_constraint where conrelid = $1::regclass)`,
      [table],
    );
    for (const i of idx) {
      await tx.query(`drop index "${i.indexname}"`);
      rebuild.push(i.indexdef);
    }
    // the transition-table trigger would copy every new row once more: the count is kept below
    await tx.query(`alter table ${table} disable trigger ${table}_stats_insert`);
    // PGlite's WASM memory never shrinks: a smaller sort area there (no slower at this size)
    await tx.query(`set local maintenance_work_mem = '${tx.kind === 'postgres' ? '256MB' : '16MB'}'`);
  }

  // ids from the sequence, reserved in one step at the end (nobody else inserts under the lock)
  const seq = `pg_get_serial_sequence('${table}', 'id')`;
  const [{ lo } = { lo: 1 }] = await tx.query<{ lo: string | number }>(`select nextval(${seq}) as lo`);
  let nextId = Number(lo);
  const writer = tableWriter(tx, table, columns);
  let records = 0;
  let waited = 0;
  let waitedDisk = 0;
  const pause = async (wait: Promise<void>) => {
    const w0 = performance.now();
    await wait;
    waitedDisk += performance.now() - w0;
  };
  const skip = (values: Partial<Record<string, string>>, reason: string, id: number | null, status?: string) => {
    const item: ImportSkipped = {
      number: values[key] ?? '',
      name: values.name ?? '',
      status: status ?? values.status ?? '',
      id,
      reason,
    };
    if (key === 'value') (item as unknown as Record<string, unknown>).value = values.value ?? '';
    return out.skipped.add(JSON.stringify(item));
  };
  const named = (values: string[]) => {
    const o: Record<string, string> = {};
    columns.forEach((c, i) => {
      o[c] = values[i] ?? '';
    });
    return o;
  };
  try {
    for await (const recs of readRecordBatches(file, columns)) {
      for (const rec of recs) {
        records++;
        if (records % 100_000 === 0) mark(`row ${records}`);
        if (rec.error) {
          const wait = skip(rec.fields, rec.error, null);
          if (wait) await pause(wait);
          continue;
        }
        const norm = target.normalize(rec.fields);
        if ('reason' in norm) {
          const wait = skip(rec.fields, norm.reason, null);
          if (wait) await pause(wait);
          continue;
        }
        const k = norm.values[0] ?? '';
        const code = keys.get(k);
        if (code !== undefined) {
          const ownerId = Math.floor(code / 8);
          const ownerStatus = statuses[Math.floor((code % 8) / 2)];
          const inFile = code % 2 === 1;
          if (!inFile) keys.set(k, code + 1);
          const wait = skip(
            named(norm.values),
            inFile ? 'Duplicate in file' : 'Already registered',
            ownerId,
            ownerStatus,
          );
          if (wait) await pause(wait);
          continue;
        }
        const id = nextId++;
        keys.set(k, id * 8 + statusIndex(norm.values[columns.indexOf('status')] ?? '') * 2 + 1);
        const written = out.created.add(
          target.toJson ? target.toJson(id, norm.values) : JSON.stringify(target.toDto(id, norm.values)),
        );
        if (written) await pause(written);
        const wait = writer.add(id, norm.values);
        if (wait) {
          const w0 = performance.now();
          await wait;
          waited += performance.now() - w0;
        }
      }
    }
  } catch (err) {
    writer.abort(err instanceof Error ? err : new Error(String(err)));
    throw err;
  }
  await writer.end();
  mark(`loaded (${Math.round(waited)} ms waiting for the database, ${Math.round(waitedDisk)} ms for the disk)`);
  if (records === 0) throw badRequest('The file is empty.');
  const added = nextId - Number(lo);
  // the sequence continues after the ids used (or gives back the one reserved when none was)
  await tx.query(`select setval(${seq}, $1, $2)`, [added ? nextId - 1 : Number(lo), added > 0]);
  for (const def of rebuild) await tx.query(def);
  if (large) {
    await tx.query(`alter table ${table} enable trigger ${table}_stats_insert`);
    await tx.query(`update table_stats set row_count = row_count + $1, version = version + 1 where name = $2`, [
      added,
      table,
    ]);
  }
  mark('indexed');
  return { records };
}
