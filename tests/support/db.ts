import { randomBytes } from 'node:crypto';
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
 * A fresh, migrated database with the settings row: in-memory PGlite, or a new database on the
 * PostgreSQL server that is dropped on close. One per test file (PGlite costs seconds to start).
 */
export async function createTestDatabase(): Promise<Database & { url: string | null }> {
  if (testDbKind() === 'pglite') {
    const database = await openDatabase({ databaseUrl: null, pgliteDir: 'memory://' });
    await ensureSettings(database.db);
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
