import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import type { Column, InferSelectModel, sql, Table } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import * as schema from './schema/index';

export type Schema = typeof schema;

/** What `execute` answers on either driver: node-postgres' QueryResult and PGlite's Results both hold the rows. */
export interface RawResult<R> {
  rows: R[];
}

/** drizzle's result kind for a database whose driver is one of the two: `execute` answers a RawResult. */
export interface RawQueryResultHKT extends PgQueryResultHKT {
  readonly type: RawResult<this['row']>;
}

/**
 * The database handle every repository takes: the same type on PGlite and on PostgreSQL, and the
 * common supertype of the database and its transactions. drizzle's NodePgDatabase and
 * PgliteDatabase are both a `PgDatabase` over a result kind that has `rows`, and a transaction
 * (`PgTransaction`, the `tx` of `db.transaction((tx) => …)`) is a `PgDatabase` too: either one is a
 * Db as it is, so a repository built on a transaction's handle needs no cast.
 */
export type Db = PgDatabase<RawQueryResultHKT, Schema>;

/**
 * A table's row as drizzle types it (`$inferSelect`), keyed by the database's column names
 * (snake_case, as raw SQL selects them): the form of a row once its values are converted (bigints
 * to numbers, timestamps to ISO text or Date as the caller does).
 */
export type Columns<T extends Table> = InferSelectModel<T, { dbColumnNames: true }>;

/**
 * A bigint (int8) as raw SQL answers it (a bigint column, `count(*)`, `sum()` of integers): PGlite
 * parses it to a number, node-postgres leaves it text.
 */
export type Int8 = number | string;

/** A numeric as raw SQL answers it (a numeric column, `sum()` of bigints): text on either driver. */
export type Numeric = string;

/**
 * One column's value as raw SQL answers it, which is not always what `$inferSelect` says: drizzle's
 * own parsers are off for `execute`, so timestamps and dates come back as PostgreSQL's text
 * (`Time`: what `preparedRows` gives on PostgreSQL is a Date), numerics as text, and a bigint in
 * `number` mode as the driver gives an int8 (Int8). Integers, booleans, text, json(b) and arrays are
 * what the schema says. A custom type (bytea) is left unknown: its mapping is drizzle's, not the driver's.
 */
type RawValue<C extends Column, Time> = C['_']['columnType'] extends
  | 'PgTimestamp'
  | 'PgTimestampString'
  | 'PgDate'
  | 'PgDateString'
  ? Time
  : C['_']['columnType'] extends 'PgBigInt53' | 'PgBigSerial53'
    ? Int8
    : C['_']['columnType'] extends 'PgNumeric' | 'PgNumericNumber'
      ? Numeric
      : C['_']['columnType'] extends 'PgCustomColumn'
        ? unknown
        : C['_']['data'];

/**
 * A table's row as raw SQL (`rows`) returns it: keyed by the database's column names, each value as
 * the driver answers it (see RawValue), null where the column is nullable. Take the columns a query
 * selects with `Pick<RawRow<typeof table>, …>`, and add its computed ones. With `preparedRows`, pass
 * `Date | string` as `Time`: PostgreSQL's prepared statements parse timestamps and dates, PGlite's do not.
 */
export type RawRow<T extends Table, Time = string> = {
  [K in keyof T['_']['columns'] & string as T['_']['columns'][K]['_']['name']]:
    | RawValue<T['_']['columns'][K], Time>
    | (T['_']['columns'][K]['_']['notNull'] extends true ? never : null);
};

/** Columns of a left-joined table (or a settings row that may be missing): each may be null. */
export type Nullable<T> = { [K in keyof T]: T[K] | null };

/** Columns selected under a prefix (`w.id as w_id`): `Prefixed<'w_', Pick<RawRow<…>, 'id'>>`. */
export type Prefixed<P extends string, T> = { [K in keyof T & string as `${P}${K}`]: T[K] };

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, 'migrations');

/** An arbitrary but fixed key so that concurrent starts (API + workers) migrate one at a time. */
const MIGRATION_LOCK_KEY = 727_274_001;

/**
 * Opens the database: PostgreSQL when `databaseUrl` is given, else embedded PGlite with its
 * files in `dataDir` (or in memory for `memory://`). Runs the migrations before returning.
 * `pgliteFrom`: an in-memory PGlite starts as a copy of this data directory (a `dumpDataDir` of a
 * migrated database: the tests migrate once and copy it per file); its migrations then find
 * nothing to do.
 */
export async function openDatabase(opts: {
  databaseUrl: string | null;
  pgliteDir: string;
  pgliteFrom?: Blob;
}): Promise<Database> {
  if (opts.databaseUrl) {
    // a server that does not answer fails a connection in 5 s rather than never: loops and health
    // checks wait out an outage themselves (DependencyMonitor), they must not hang in connect
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      connectionTimeoutMillis: 5000,
      keepAlive: true,
    });
    // an idle client dropped by the server must not crash the process
    pool.on('error', () => {});
    // nor one checked out between two statements (a transaction's, when the server restarts or
    // terminates it): pg-pool listens only while a client is idle, and a client emits the error
    // with no query to give it to. The transaction's next statement fails instead, and the pool
    // drops the client when it comes back (it is no longer queryable).
    pool.on('connect', (client) => client.on('error', () => {}));
    const db: Db = drizzlePg(pool, { schema });
    const lock = await pool.connect();
    try {
      await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await migratePg(drizzlePg(pool, { schema }), { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
      lock.release();
    }
    return { db, kind: 'postgres', close: () => pool.end() };
  }
  const client =
    opts.pgliteDir === 'memory://'
      ? new PGlite(opts.pgliteFrom ? { loadDataDir: opts.pgliteFrom } : {})
      : new PGlite(opts.pgliteDir);
  await client.waitReady;
  const pgliteDb = drizzlePglite(client, { schema });
  await migratePglite(pgliteDb, { migrationsFolder: MIGRATIONS_DIR });
  return { db: pgliteDb, kind: 'pglite', close: () => client.close() };
}

/**
 * Rows of a raw SQL query, on either driver (or a transaction's handle). `T` is the caller's word
 * for what the query selects: derive it from the schema (RawRow) rather than restate columns.
 */
export async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await db.execute<T & Record<string, unknown>>(query);
  return result.rows;
}

/**
 * The driver's client behind a database handle made by openDatabase (drizzle's `$client`: a
 * pg.Pool or a PGlite); none for a transaction's handle, which drizzle gives no client.
 */
function clientOf(db: Db): unknown {
  return '$client' in db ? db.$client : undefined;
}

const statementNames = new Map<string, string>();

/**
 * Rows of a raw SQL query, as a prepared statement on PostgreSQL: for the statements every blast
 * message runs, where planning each call afresh cost more than running it (bench/README.md). The
 * statement is named by its text, so each pooled connection plans it once. Timestamps come back as
 * `Date`. On PGlite (one embedded connection) it is `rows`.
 */
export async function preparedRows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const client = clientOf(db);
  if (!(client instanceof pg.Pool)) return rows<T>(db, query);
  const result = await client.query<T & pg.QueryResultRow>(named(query));
  return result.rows;
}

/**
 * Renders SQL as the drizzle instances do: openDatabase makes them with no casing option, so a
 * dialect of its own renders the same text and parameters as theirs (whose `dialect` is internal).
 */
const dialect = new PgDialect();

/** A query as a named (prepared) statement: named by its text, so each connection plans it once. */
function named(query: ReturnType<typeof sql>): pg.QueryConfig {
  const { sql: text, params } = dialect.sqlToQuery(query);
  let name = statementNames.get(text);
  if (!name) {
    name = `wa_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return { name, text, values: params };
}

/** A connection that runs plain SQL inside one transaction, on either driver. */
export interface RawTx {
  kind: 'pglite' | 'postgres';
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  /** PostgreSQL only: a COPY … FROM STDIN stream on this connection */
  copyFrom?(text: string): Writable;
  /** PGlite only: COPY … FROM '/dev/blob' with this text as the file */
  copyBlob?(text: string, data: string | Uint8Array): Promise<void>;
}

/**
 * Runs `work` in a transaction on one raw connection of `db`, for bulk paths that need COPY or
 * cursors (drizzle's transaction hides the client). Commits when `work` resolves.
 */
export async function withRawTransaction<T>(db: Db, work: (tx: RawTx) => Promise<T>): Promise<T> {
  const client = clientOf(db);
  if (client instanceof PGlite) {
    return client.transaction(async (t) =>
      work({
        kind: 'pglite',
        query: async <R>(text: string, params?: unknown[]) => (await t.query<R>(text, params)).rows,
        copyBlob: async (text: string, data: string | Uint8Array) => {
          const part =
            typeof data === 'string'
              ? data
              : new Uint8Array(data.buffer as ArrayBuffer, data.byteOffset, data.byteLength);
          await t.query(text, [], { blob: new Blob([part]) });
        },
      }),
    );
  }
  if (!(client instanceof pg.Pool)) throw new Error('withRawTransaction needs the database of openDatabase');
  const conn = await client.connect();
  try {
    await conn.query('begin');
    const result = await work({
      kind: 'postgres',
      query: async <R>(text: string, params?: unknown[]) =>
        (await conn.query<R & pg.QueryResultRow>(text, params)).rows,
      copyFrom: (text: string) => conn.query(copyFrom(text)),
    });
    await conn.query('commit');
    return result;
  } catch (err) {
    await conn.query('rollback').catch(() => {});
    throw err;
  } finally {
    conn.release();
  }
}
