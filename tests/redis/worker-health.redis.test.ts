import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../core/src/db/client';
import { createPostgresDatabase, dropPostgresDatabase } from '../support/db';
import { TIME_SCALE } from '../support/wait';

/**
 * The worker container's healthcheck, `npm run -s worker:health` (docker-compose.yml), run as the
 * container runs it: it fails while no worker of this host is alive (none started, or only other
 * hosts' workers), passes once a real `npm run worker` is up, and fails again within a lease after
 * that worker is killed, or at once when it stops cleanly.
 */
const redisUrl = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
if (!redisUrl) throw new Error('the redis tier needs TEST_REDIS_URL (or REDIS_URL)');
const root = path.resolve(import.meta.dirname, '../..');
/** short leases, so that a killed worker's heartbeat runs out in seconds */
const LEASE_MS = 3000;

let database: Database;
let dbName: string;
let dbUrl: string;

beforeAll(async () => {
  ({ name: dbName, url: dbUrl } = await createPostgresDatabase('wa_worker_health'));
  database = await openDatabase({ databaseUrl: dbUrl, pgliteDir: '' });
}, 60_000);

afterAll(async () => {
  await database?.close();
  if (dbName) await dropPostgresDatabase(dbName);
});

interface Worker {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  dataDir: string;
}
const running: Worker[] = [];
afterEach(() => {
  for (const w of running.splice(0)) {
    w.child.kill('SIGKILL');
    rmSync(w.dataDir, { recursive: true, force: true });
  }
});

/** A worker process (`npm run worker`'s) on the simulator, this file's database and a Redis prefix of its own. */
function startWorker(): Worker {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wa-worker-health-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'workers/src/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      DATA_DIR: dataDir,
      DATABASE_URL: dbUrl,
      REDIS_URL: redisUrl as string,
      REDIS_PREFIX: `wa-health-${randomBytes(3).toString('hex')}`,
      WA_DRIVER: 'sim',
      WA_LEASE_MS: String(LEASE_MS),
      WA_SWEEP_MS: '1000',
    },
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const worker = { child, output: () => out, exited, dataDir };
  running.push(worker);
  return worker;
}

/** The healthcheck as docker runs it: its exit code and what it printed. */
function healthcheck(): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', 'worker:health'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), DATABASE_URL: dbUrl },
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/** Runs the healthcheck until it exits with `code`; fails with its last output after `ms`. */
async function healthcheckUntil(code: number, ms: number, context: () => string = () => '') {
  const end = Date.now() + ms * TIME_SCALE;
  for (;;) {
    const r = await healthcheck();
    if (r.code === code) return r;
    if (Date.now() > end) throw new Error(`healthcheck never exited ${code}; last: ${r.out}\n${context()}`);
  }
}

describe('npm run worker:health (the worker container healthcheck)', () => {
  it("fails while no worker of this host is alive, even with another host's worker alive", async () => {
    await database.db.execute(sql`insert into whatsapp_workers (worker_id, max_logins, expires_at)
      values ('elsewhere-4242-abc123', 20, now() + interval '1 hour')`);
    const r = await healthcheck();
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/unhealthy: no worker on host .+ has a live heartbeat/);
  });

  it('passes once the worker is up and fails within a lease after it is killed', async () => {
    const w = startWorker();
    const up = await healthcheckUntil(0, 60_000, w.output);
    expect(up.out).toMatch(/healthy: worker .+ is alive/);
    w.child.kill('SIGKILL');
    await w.exited;
    // its heartbeat row stays until it runs out, one lease after the last renewal
    const down = await healthcheckUntil(1, LEASE_MS + 10_000);
    expect(down.out).toMatch(/no worker on host .+ has a live heartbeat/);
  }, 120_000);

  it('fails at once after the worker stops cleanly (SIGTERM)', async () => {
    const w = startWorker();
    await healthcheckUntil(0, 60_000, w.output);
    w.child.kill('SIGTERM');
    expect(await w.exited).toBe(0);
    const r = await healthcheck();
    expect(r.code, r.out).toBe(1);
  }, 120_000);

  it('fails, saying so, when the database does not answer', async () => {
    const child = spawn('npm', ['run', '-s', 'worker:health'], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? tmpdir(),
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
      },
    });
    let out = '';
    child.stderr.on('data', (d) => {
      out += d;
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(out).toMatch(/unhealthy: the database did not answer/);
  });
});
