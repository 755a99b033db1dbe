import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import type { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgDialect, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import * as schema from './schema/index';

export type Schema = typeof schema;
/** The database handle every repository takes: the same type on PGlite and on PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

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
    const db = drizzlePg(pool, { schema }) as unknown as Db;
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
  return { db: pgliteDb as unknown as Db, kind: 'pglite', close: () => client.close() };
}

/** Rows of a raw SQL query, on either driver. */
export async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const statementNames = new Map<string, string>();

/**
 * Rows of a raw SQL query, as a prepared statement on PostgreSQL: for the statements every blast
 * message runs, where planning each call afresh cost more than running it (bench/README.md). The
 * statement is named by its text, so each pooled connection plans it once. Timestamps come back as
 * `Date`. On PGlite (one embedded connection) it is `rows`.
 */
export async function preparedRows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const client = (db as unknown as { $client: unknown }).$client;
  if (!(client instanceof pg.Pool)) return rows<T>(db, query);
  const result = await client.query(named(db, query));
  return result.rows as T[];
}

/** A query as a named (prepared) statement: named by its text, so each connection plans it once. */
function named(db: Db, query: ReturnType<typeof sql>): pg.QueryConfig {
  const { sql: text, params } = (db as unknown as { dialect: PgDialect }).dialect.sqlToQuery(query);
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
  const client = (db as unknown as { $client: unknown }).$client;
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
  const pool = client as pg.Pool;
  const conn = await pool.connect();
  try {
    await conn.query('begin');
    const result = await work({
      kind: 'postgres',
      query: async <R>(text: string, params?: unknown[]) => (await conn.query(text, params as unknown[])).rows as R[],
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
