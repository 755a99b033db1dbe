import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, openDatabase } from '../../core/src/db/client';
import { ensureSettings } from '../../server/src/bootstrap';

/** Which database the integration tier runs on: `TEST_DB=postgres` uses TEST_DATABASE_URL. */
export function testDbKind(): 'pglite' | 'postgres' {
  return process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL (or DATABASE_URL)');
  return url;
}

/**
 * Lifts the account-safety limits that would otherwise shape every blast a suite runs: the send
 * window (08:00–20:00 by default, so a run at night would wait) and the daily cap's warm-up (30 on
 * an account's first day), to the largest values the settings form accepts. The suite of those rules (account-safety.test.ts) sets them itself.
 */
export async function allowBlastingAnyTime(db: Database['db']): Promise<void> {
  await db.execute(sql`update settings set send_window_start = '00:00', send_window_end = '24:00',
    daily_cap_start = 100000, daily_cap_max = 100000, check_budget_daily = 1000000, check_cache_days = 0`);
}

/**
 * A fresh, migrated database with the settings row: in-memory PGlite, or a new database on the
 * PostgreSQL server that is dropped on close. One per test file (PGlite costs seconds to start).
 */
export async function createTestDatabase(): Promise<Database & { url: string | null }> {
  if (testDbKind() === 'pglite') {
    const database = await openDatabase({ databaseUrl: null, pgliteDir: 'memory://' });
    await ensureSettings(database.db);
    await allowBlastingAnyTime(database.db);
    return { ...database, url: null };
  }
  const base = new URL(adminUrl());
  const name = `wa_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), pgliteDir: '' });
  await ensureSettings(database.db);
  await allowBlastingAnyTime(database.db);
  return {
    ...database,
    url: url.toString(),
    close: async () => {
      await database.close();
      const drop = new pg.Client({ connectionString: base.toString() });
      await drop.connect();
      await drop.query(`drop database if exists ${name} with (force)`);
      await drop.end();
    },
  };
}
