import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import { afterAll, beforeAll, expect } from 'vitest';
import { type Database, openDatabase } from '../../core/src/db/client';
import { createLogger } from '../../core/src/logger';
import { createApp } from '../../server/src/app';
import { createPgliteDir, createTestDatabase, testDbKind } from './db';
import { TEST_JWT_SECRET } from './factories';
import { TIME_SCALE } from './wait';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** What one run of the CLI did: its exit code and what it wrote. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm run admin -- ...args` in the repository, as an operator types it, with `env` over this
 * process's environment. Killed (and the test failed) after a minute, times TEST_TIME_SCALE.
 */
export function runAdminCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'admin', '--', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`npm run admin -- ${args.join(' ')} did not end in time\n${stdout}\n${stderr}`));
    }, 60_000 * TIME_SCALE);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The password a run printed: its one `password: …` line (the test fails unless there is exactly one). */
export function printedPassword(run: CliRun): string {
  const lines = run.stdout.split('\n').filter((l) => l.startsWith('password:'));
  expect(lines, run.stdout + run.stderr).toHaveLength(1);
  const password = /^password: (\S+)$/.exec(lines[0])?.[1] ?? '';
  expect(password, lines[0]).not.toBe('');
  return password;
}

/**
 * An installation as the CLI finds it: the server's database (PGlite in a DATA_DIR on disk, or a
 * PostgreSQL database), the API over it, and the environment an operator's shell has for it.
 */
export interface Installation {
  readonly kind: 'pglite' | 'postgres';
  readonly database: Database;
  /** the API over the database (made again when the database is reopened) */
  readonly app: Express;
  /** DATA_DIR, DATABASE_URL (empty on PGlite) and REDIS_URL (empty unless given) as the server has them */
  readonly env: Record<string, string>;
  /**
   * Runs the CLI as the operator is told to: on PGlite with the server stopped (this process's
   * database closed meanwhile, then opened again), on PostgreSQL with the server running.
   */
  admin(...args: string[]): Promise<CliRun>;
  /** Runs the CLI with the database left open, as while a server runs on it. */
  adminWhileRunning(...args: string[]): Promise<CliRun>;
}

/**
 * An Installation for the file it is called in: made in beforeAll, removed in afterAll. `extraEnv`
 * is the rest of the server's environment (REDIS_URL, REDIS_PREFIX), as the CLI gets it too.
 */
export function useInstallation(extraEnv: Record<string, string> = {}): Installation {
  const kind = testDbKind();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wa-admin-cli-'));
  const pgliteDir = path.join(dataDir, 'pglite');
  const state = {} as { database: Database; app: Express; url: string | null; drop: () => Promise<void> };
  const serve = (database: Database) => {
    state.database = database;
    state.app = createApp({ db: database.db, jwtSecret: TEST_JWT_SECRET, logger: createLogger('silent'), dataDir });
  };
  const env = () => ({ DATA_DIR: dataDir, DATABASE_URL: state.url ?? '', REDIS_URL: '', ...extraEnv });
  beforeAll(async () => {
    if (kind === 'pglite') {
      await createPgliteDir(pgliteDir);
      state.url = null;
      state.drop = async () => {};
      serve(await openDatabase({ databaseUrl: null, pgliteDir }));
      return;
    }
    const database = await createTestDatabase();
    state.url = database.url;
    state.drop = () => database.close();
    serve(database);
  });
  afterAll(async () => {
    if (kind === 'pglite') await state.database?.close();
    else await state.drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    kind,
    get database() {
      return state.database;
    },
    get app() {
      return state.app;
    },
    get env() {
      return env();
    },
    adminWhileRunning: (...args) => runAdminCli(args, env()),
    async admin(...args) {
      if (kind === 'postgres') return runAdminCli(args, env());
      await state.database.close();
      try {
        return await runAdminCli(args, env());
      } finally {
        serve(await openDatabase({ databaseUrl: null, pgliteDir }));
      }
    },
  };
}
