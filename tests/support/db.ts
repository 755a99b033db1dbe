import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
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

/** What every test database starts with beyond its migrations: the settings row, blasting any time. */
export async function migrateFresh(db: Database['db']): Promise<void> {
  await ensureSettings(db);
  await allowBlastingAnyTime(db);
}

/** What db-template.ts (the tiers' globalSetup) made for this run, or null outside such a run. */
function provided(key: 'pgliteTemplate' | 'postgresTemplate'): string | null {
  try {
    return inject(key) ?? null;
  } catch {
    return null; // not inside vitest (a bench script)
  }
}

/** A new database on the PostgreSQL server, empty or as a copy of `template`. */
export async function createPostgresDatabase(
  prefix: string,
  template?: string,
): Promise<{ name: string; url: string }> {
  const base = new URL(adminUrl());
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
        break;
      } catch (err) {
        // 55006: another clone of the template is being made this instant; they queue briefly
        if ((err as { code?: string }).code !== '55006' || attempt >= 50) throw err;
        await new Promise((r) => setTimeout(r, 20 * attempt));
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

/** Drops a database createPostgresDatabase made, with whoever is still connected to it. */
export async function dropPostgresDatabase(name: string): Promise<void> {
  const drop = new pg.Client({ connectionString: adminUrl() });
  await drop.connect();
  try {
    await drop.query(`drop database if exists ${name} with (force)`);
  } finally {
    await drop.end();
  }
}

/**
 * A fresh, migrated database with the settings row: in-memory PGlite, or a new database on the
 * PostgreSQL server that is dropped on close. One per test file. Under vitest both are copies of
 * the run's template (db-template.ts), migrated once; elsewhere each is migrated afresh.
 */
export async function createTestDatabase(): Promise<Database & { url: string | null }> {
  if (testDbKind() === 'pglite') {
    const template = provided('pgliteTemplate');
    const pgliteFrom = template ? new Blob([readFileSync(template)]) : undefined;
    const database = await openDatabase({ databaseUrl: null, pgliteDir: 'memory://', pgliteFrom });
    if (!template) await migrateFresh(database.db);
    return { ...database, url: null };
  }
  const template = provided('postgresTemplate');
  const { name, url } = await createPostgresDatabase('wa_test', template ?? undefined);
  const database = await openDatabase({ databaseUrl: url, pgliteDir: '' });
  if (!template) await migrateFresh(database.db);
  return {
    ...database,
    url,
    close: async () => {
      await database.close();
      await dropPostgresDatabase(name);
    },
  };
}

/**
 * A migrated PGlite data directory on disk at `dir` (what a server keeps in DATA_DIR/pglite), with
 * the settings row, closed again: for tests that run the product's own processes on it. Under
 * vitest a copy of the run's template, elsewhere migrated afresh.
 */
export async function createPgliteDir(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const template = provided('pgliteTemplate');
  if (template) {
    const client = new PGlite(dir, { loadDataDir: new Blob([readFileSync(template)]) });
    await client.waitReady;
    await client.close();
    return;
  }
  const database = await openDatabase({ databaseUrl: null, pgliteDir: dir });
  await migrateFresh(database.db);
  await database.close();
}
