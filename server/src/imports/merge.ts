import { createReadStream } from 'node:fs';
import path from 'node:path';
import { type Db, type RawTx, withRawTransaction } from '@wa/core/db/client';
import { CAMPAIGN_TARGET_TEXTS } from '@wa/shared';
import type { BulkTarget } from './bulk-target';
import { ByteFile, ItemFile } from './byte-file';
import { copyStream } from './copy-stream';
import type { SkipLine } from './stage';

/** What the merge learnt of each candidate (by its index in the candidate file). */
export interface Holders {
  /** the id of the row that holds the candidate's key now (created or already there) */
  id(candidate: number): number;
  /** that row's status */
  status(candidate: number): string;
}

interface Sink {
  add(text: string): Promise<void> | undefined;
}

/** A COPY text field back to its value (the importer writes no nulls). */
function fromCopy(v: string): string {
  return v.includes('\\')
    ? v.replace(/\\(.)/g, (_m, c: string) => ({ t: '\t', n: '\n', r: '\r' })[c as 't' | 'n' | 'r'] ?? c)
    : v;
}

/** The lines of a file, `size` at a time (the last group may be shorter). */
async function* lineGroups(file: string, size: number): AsyncGenerator<string[]> {
  let rest = '';
  let group: string[] = [];
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const parts = (rest + (chunk as string)).split('\n');
    rest = parts.pop() ?? '';
    for (const p of parts) {
      group.push(p);
      if (group.length >= size) {
        yield group;
        group = [];
      }
    }
  }
  if (rest) group.push(rest);
  if (group.length) yield group;
}

/** Loads one chunk's COPY text into the transaction's scratch table. */
async function fill(tx: RawTx, table: string, names: string, text: string): Promise<void> {
  if (tx.copyFrom) {
    const copy = copyStream({ ...tx, copyFrom: tx.copyFrom }, `copy ${table} (${names}) from stdin`);
    const wait = copy.push(text);
    if (wait) await wait;
    await copy.end();
    return;
  }
  if (!tx.copyBlob) throw new Error('no bulk path for this database');
  await tx.copyBlob(`copy ${table} (${names}) from '/dev/blob'`, text);
}

/**
 * The SQL of a target's scope (BulkTarget.scope): the column and value an inserted row gets, and
 * the condition that a row of alias `a` is in the scope. The pool's `campaign_id is null` is what
 * lets its key lookups use the partial unique index; a campaign's id is a whole number, written
 * into the statement as a literal (checked here, so nothing but digits gets in).
 */
function scopeSql(target: BulkTarget): { column: string; value: string; within: (a: string) => string } {
  const scope = target.scope;
  if (!scope) return { column: '', value: '', within: () => 'true' };
  if (scope.value === null) return { column: '', value: '', within: (a) => `${a}.${scope.column} is null` };
  if (!Number.isSafeInteger(scope.value)) throw new Error(`import scope ${scope.column} is not a whole number`);
  return {
    column: `, ${scope.column}`,
    value: `, ${scope.value}`,
    within: (a) => `${a}.${scope.column} = ${scope.value}`,
  };
}

/**
 * Removes from the chunk's scratch table the keys opted out anywhere in the table (phone_numbers:
 * the pool or any campaign) and returns them. A scoped table is probed once a row on each side of
 * its scope column, each on its own partial index by key (the pool's unique one, the campaigns'
 * phone_numbers_campaign_by_number_idx), so the cost follows the chunk, not how many have opted
 * out. The sides are a UNION ALL inside one EXISTS: an OR of two EXISTS is planned as two hashed
 * subplans, which read every opted-out row for each chunk.
 */
async function leaveOutOptedOut(tx: RawTx, target: BulkTarget, scratch: string): Promise<Set<string>> {
  const { table, key } = target;
  const column = target.scope?.column;
  const sides = column ? [`o.${column} is null`, `o.${column} is not null`] : ['true'];
  const probes = sides.map(
    (side) => `select 1 from ${table} o where ${side} and o.${key} = c.${key} and o.status = 'optout'`,
  );
  const out = await tx.query<{ k: string }>(
    `delete from ${scratch} c where exists (${probes.join(' union all ')}) returning c.${key} as k`,
  );
  return new Set(out.map((o) => o.k));
}

/** What the database answered for one chunk. */
interface ChunkFound {
  /** the created rows' ids by key */
  byKey: Map<string, number>;
  /** the rows of the scope already holding the keys that were not created */
  held: Map<string, { id: number; status: string }>;
  /** keys not created because they are opted out (BulkTarget.suppressOptOuts) */
  optedOut: Set<string>;
}

/** Grows typed arrays as candidates are learnt (their number is known, but not their statuses). */
class HolderTable implements Holders {
  private readonly ids: Float64Array;
  private readonly codes: Uint8Array;
  private readonly names: string[] = [];
  constructor(count: number) {
    this.ids = new Float64Array(count);
    this.codes = new Uint8Array(count);
  }
  set(candidate: number, id: number, status: string) {
    let code = this.names.indexOf(status);
    if (code < 0) code = this.names.push(status) - 1;
    this.ids[candidate] = id;
    this.codes[candidate] = code;
  }
  id(candidate: number) {
    return this.ids[candidate] ?? 0;
  }
  status(candidate: number) {
    return this.names[this.codes[candidate] ?? 0] ?? '';
  }
}

/**
 * Inserts the staged candidates into `target` in chunks of `chunkRows`, each chunk its own short
 * transaction, so the import never holds anything a blast waits on for longer than one chunk: the
 * rows go in with plain INSERTs (row locks on new rows only, indexes and the row-count trigger
 * kept), and no lock on the table stronger than the one every UPDATE takes. A key registered
 * before or meanwhile (another writer between chunks) is skipped by ON CONFLICT, never an error.
 * Duplicates are judged within the target's scope only (a pool import against the pool, a
 * campaign's against that campaign), and with `suppressOptOuts` a key opted out anywhere in the
 * table is left out of the chunk before the insert. Created rows (JSON of the API's shape) go to
 * `created` in file order, rows already registered or opted out to `skipped` (SkipLine), and the
 * holder of every candidate's key is returned for the in-file duplicates. A failure leaves the
 * chunks before it in place; a re-import skips them.
 */
async function insertChunks(
  db: Db,
  target: BulkTarget,
  candidates: { path: string; count: number },
  out: { created: Sink; skipped: Sink },
  chunkRows: number,
  mark: (what: string) => void,
): Promise<{ created: number; registered: number; holders: Holders }> {
  const { table, key, columns } = target;
  const names = ['line', ...columns].join(', ');
  const cols = columns.join(', ');
  const scope = scopeSql(target);
  const scratch = 'import_chunk';
  const holders = new HolderTable(candidates.count);
  const statusAt = columns.indexOf('status');
  let index = 0;
  let created = 0;
  let registered = 0;
  // what the database answered for the previous chunk is written out while it inserts the next
  // one (Node's work and the database's then overlap instead of taking turns)
  let writing: Promise<void> = Promise.resolve();
  const writeOut = async (first: number, rowsIn: string[][], found: ChunkFound) => {
    for (let i = 0; i < rowsIn.length; i++) {
      const [lineText, ...values] = rowsIn[i] as string[];
      const k = values[0] ?? '';
      const id = found.byKey.get(k);
      let wait: Promise<void> | undefined;
      if (id !== undefined) {
        created++;
        holders.set(first + i, id, values[statusAt] ?? '');
        wait = out.created.add(target.toJson ? target.toJson(id, values) : JSON.stringify(target.toDto(id, values)));
      } else {
        registered++;
        const h = found.held.get(k);
        // opted out is said first, also of a key the scope holds: it is why the key is never taken
        const optedOut = found.optedOut.has(k);
        // a key taken and removed again by others meanwhile: skipped all the same, without a holder
        const status = optedOut ? 'optout' : (h?.status ?? null);
        holders.set(first + i, h ? Number(h.id) : 0, status ?? '');
        const line: SkipLine = [
          Number(lineText),
          -1,
          optedOut ? CAMPAIGN_TARGET_TEXTS.optedOut : 'Already registered',
          values,
          h ? Number(h.id) : null,
          status,
        ];
        wait = out.skipped.add(`${JSON.stringify(line)}\n`);
      }
      if (wait) await wait;
    }
  };
  for await (const lines of lineGroups(candidates.path, chunkRows)) {
    const first = index;
    index += lines.length;
    const inserting = withRawTransaction(db, async (tx): Promise<ChunkFound> => {
      await tx.query(
        `create temp table ${scratch} (line int not null, ${columns.map((c) => `${c} text`).join(', ')}) on commit drop`,
      );
      await fill(tx, scratch, names, `${lines.join('\n')}\n`);
      // the chunk is small and unanalysed: probe the key's index per row rather than hash the
      // whole table (the planner would read every row of a large table for each chunk)
      await tx.query('set local enable_hashjoin = off');
      await tx.query('set local enable_mergejoin = off');
      const optedOut = target.suppressOptOuts ? await leaveOutOptedOut(tx, target, scratch) : new Set<string>();
      // rows already registered are left out before the insert, so they take no id from the
      // sequence; ON CONFLICT covers one registered by someone else since (ids in file order)
      const ins = await tx.query<{ id: number; k: string }>(
        `insert into ${table} (${cols}${scope.column})
           select ${cols}${scope.value} from ${scratch} c
           where not exists (select 1 from ${table} p where p.${key} = c.${key} and ${scope.within('p')})
           order by c.line
         on conflict do nothing
         returning id, ${key} as k`,
      );
      const byKey = new Map<string, number>();
      for (const r of ins) byKey.set(r.k, Number(r.id));
      if (byKey.size === lines.length) return { byKey, held: new Map(), optedOut };
      const missing = lines.map((l) => fromCopy(l.split('\t')[1] ?? '')).filter((k) => !byKey.has(k));
      const held = await tx.query<{ id: number; k: string; status: string }>(
        `select id, ${key} as k, status from ${table} p where ${key} = any($1::text[]) and ${scope.within('p')}`,
        [missing],
      );
      return { byKey, held: new Map(held.map((h) => [h.k, h])), optedOut };
    });
    // awaited below, after the previous chunk's rows are written: kept from counting as unhandled meanwhile
    inserting.catch(() => {});
    await writing;
    const rowsIn = lines.map((l) => l.split('\t').map(fromCopy));
    const found = await inserting;
    writing = writeOut(first, rowsIn, found);
    mark(`merged ${index} of ${candidates.count}`);
  }
  await writing;
  return { created, registered, holders };
}

/** What the merge left under the import's directory for the report. */
export interface MergedFiles {
  /** the created rows as the answer's JSON items, in file order (see ItemFile) */
  created: { path: string; count: number };
  /** the rows found already registered (or opted out), as SkipLine JSON lines in file order */
  registered: { path: string };
  /** the row holding each candidate's key, for the in-file duplicates */
  holders: Holders;
}

/**
 * The merge phase: inserts the staged candidates (see `insertChunks`) and writes what the report
 * needs into two files under `dir`, closed when this settles, whether it succeeded or not.
 */
export async function mergeCandidates(
  db: Db,
  target: BulkTarget,
  candidates: { path: string; count: number },
  dir: string,
  chunkRows: number,
  mark: (what: string) => void,
): Promise<MergedFiles> {
  const created = new ItemFile(path.join(dir, 'created.json'));
  const registered = new ByteFile(path.join(dir, 'skipped-late.jsonl'));
  const { holders } = await insertChunks(
    db,
    target,
    candidates,
    { created, skipped: registered },
    chunkRows,
    mark,
  ).finally(() => Promise.all([created.close(), registered.close()]));
  return { created: { path: created.path, count: created.count }, registered: { path: registered.path }, holders };
}
