import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Express } from 'express';
import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/src/app';
import { ensureSettings } from '../../server/src/bootstrap';
import { type Database, openDatabase, rows } from '../../server/src/db/client';
import { createInfra } from '../../server/src/jobs/index';
import { createLogger } from '../../server/src/logger';
import { bearer } from '../support/api';
import { createUser, TEST_JWT_SECRET, type TestUser } from '../support/factories';

/**
 * Issue 4's failover proof: two `npm run worker` processes on the simulator share real Redis and
 * PostgreSQL; one is killed with SIGKILL, and every account it held is connected again on the
 * other within 60 s, restored from its stored session (no new QR).
 */
const redisUrl = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (!redisUrl) throw new Error('the redis tier needs TEST_REDIS_URL (or REDIS_URL)');
if (!pgUrl)
  throw new Error('the failover test needs TEST_DATABASE_URL (or DATABASE_URL): workers share one PostgreSQL');
const root = path.resolve(import.meta.dirname, '../..');
const prefix = `wa-failover-${randomBytes(3).toString('hex')}`;
const dbName = `wa_failover_${process.pid}_${randomBytes(3).toString('hex')}`;
const dbUrl = (() => {
  const u = new URL(pgUrl);
  u.pathname = `/${dbName}`;
  return u.toString();
})();

interface Worker {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  dataDir: string;
}

function startWorker(): Worker {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wa-failover-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'workers/src/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      REDIS_URL: redisUrl as string,
      REDIS_PREFIX: prefix,
      DATABASE_URL: dbUrl,
      WA_DRIVER: 'sim',
      SIM_PAIR_DELAY_MS: '400',
      SIM_RESTORE_DELAY_MS: '100',
      LOG_LEVEL: 'info',
    },
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited, dataDir };
}

async function waitFor<T>(check: () => Promise<T | null | false>, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

let database: Database;
let app: Express;
let infra: ReturnType<typeof createInfra>;
let member: TestUser;
const workers: Worker[] = [];

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  database = await openDatabase({ databaseUrl: dbUrl, pgliteDir: '' });
  await ensureSettings(database.db);
  member = await createUser(database.db, { role: 'member' });
  const log = createLogger('silent');
  // the API is a producer only: the sessions live in the worker processes
  infra = createInfra(redisUrl, log, prefix);
  app = createApp({ db: database.db, jwtSecret: TEST_JWT_SECRET, logger: log, dataDir: tmpdir(), ...infra });
  workers.push(startWorker(), startWorker());
  for (const w of workers) {
    await waitFor(async () => w.output().includes('worker ready'), 60_000, `worker ready:\n${w.output()}`);
  }
}, 120_000);

afterAll(async () => {
  for (const w of workers) {
    w.child.kill('SIGKILL');
    rmSync(w.dataDir, { recursive: true, force: true });
  }
  await infra?.queue.close();
  await infra?.bus.close();
  await database?.close();
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
}, 60_000);

/** A login on whichever worker takes the job, saved as an account. */
async function connectAccount(n: number): Promise<string> {
  const deviceId = `id-${Date.now()}-${n}`;
  const authenticated = new Promise<Record<string, string>>((resolve) => {
    void infra.bus.subscribe(`ws:client-${member.id}`, (m) => {
      const msg = m as { event: string; payload: { deviceId: string; clientInfo: Record<string, string> } };
      if (msg.event === 'authenticated' && msg.payload.deviceId === deviceId) resolve(msg.payload.clientInfo);
    });
  });
  const created = await request(app)
    .post('/api/admin/whatsapp/new-client')
    .set(bearer(member.token))
    .send({ deviceId });
  expect(created.status).toBe(201);
  const qr = await request(app).get(`/api/admin/whatsapp/qr-new-client/${deviceId}`).set(bearer(member.token));
  expect(qr.status, JSON.stringify(qr.body)).toBe(200);
  const info = await authenticated;
  const saved = await request(app)
    .post('/api/admin/whatsapp/save')
    .set(bearer(member.token))
    .send({ clientid: deviceId, ...info });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  return deviceId;
}

describe('worker failover', () => {
  it('a worker killed with SIGKILL has all its accounts connected again on the other within 60 s', async () => {
    const devices: string[] = [];
    for (let i = 0; i < 6; i++) devices.push(await connectAccount(100 + i));

    const holders = await waitFor(
      async () => {
        const r = await rows<{ clientid: string; worker_id: string | null; state: string }>(
          database.db,
          sql`select clientid, worker_id, state from whatsapp_accounts`,
        );
        return r.length === devices.length && r.every((x) => x.worker_id && x.state === 'connected') ? r : null;
      },
      20_000,
      'every account connected and held',
    );
    // kill the worker that holds the most accounts
    const perPid = new Map<number, number>();
    for (const h of holders) {
      const pid = Number((h.worker_id as string).split('-').at(-2));
      perPid.set(pid, (perPid.get(pid) ?? 0) + 1);
    }
    const victimPid = [...perPid.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    const victim = workers.find((w) => w.child.pid === victimPid);
    const survivor = workers.find((w) => w !== victim);
    expect(victim, `holders: ${JSON.stringify(holders)}`).toBeDefined();
    const moved = holders.filter((h) => h.worker_id?.includes(`-${victimPid}-`)).map((h) => h.clientid);
    expect(moved.length).toBeGreaterThan(0);

    const killedAt = Date.now();
    victim?.child.kill('SIGKILL');
    await victim?.exited;

    const survivorPid = survivor?.child.pid;
    await waitFor(
      async () => {
        const r = await rows<{ worker_id: string | null; state: string }>(
          database.db,
          sql`select worker_id, state from whatsapp_accounts`,
        );
        return r.every((x) => x.state === 'connected' && x.worker_id?.includes(`-${survivorPid}-`)) || null;
      },
      60_000,
      `every account connected on the surviving worker\n${survivor?.output()}`,
    );
    const elapsed = Date.now() - killedAt;
    expect(elapsed).toBeLessThan(60_000);

    // the moved accounts answer from the survivor, restored without a new QR
    for (const d of moved) {
      const state = await request(app).get(`/api/admin/whatsapp/client-state/${d}`).set(bearer(member.token));
      expect(state.body).toEqual({ state: 'connected' });
    }
    expect(survivor?.output()).toMatch(/restoring session/);
  }, 120_000);
});
