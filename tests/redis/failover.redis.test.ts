import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_TIMEZONE } from '@wa/core/config';
import { recountDaily, storedDaily } from '@wa/core/ledger/daily';
import { rollupDifferences } from '@wa/core/ledger/rollups';
import { sql } from 'drizzle-orm';
import type { Express } from 'express';
import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type Db, openDatabase, rows } from '../../core/src/db/client';
import { createInfra } from '../../core/src/jobs/index';
import { createLogger } from '../../core/src/logger';
import { createApp } from '../../server/src/app';
import { ensureSettings } from '../../server/src/bootstrap';
import { bearer } from '../support/api';
import { allowBlastingAnyTime } from '../support/db';
import { createUser, TEST_JWT_SECRET, type TestUser } from '../support/factories';
import { TIME_SCALE } from '../support/wait';

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
      SIM_SEND_LATENCY_MS: '40',
      // a dead worker's accounts move within seconds, so the blast test below is quick
      WA_LEASE_MS: '6000',
      WA_SWEEP_MS: '2000',
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

async function waitFor<T>(
  check: () => Promise<T | null | false>,
  ms: number,
  what: string | (() => string),
): Promise<T> {
  const end = Date.now() + ms * TIME_SCALE;
  for (;;) {
    const v = await check();
    if (v) return v;
    // a function says what it waited for at the time it gave up (a process's output so far)
    if (Date.now() > end) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

let database: Database;
let app: Express;
let infra: ReturnType<typeof createInfra>;
let member: TestUser;
let dev: TestUser;
const workers: Worker[] = [];

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  database = await openDatabase({ databaseUrl: dbUrl, pgliteDir: '' });
  await ensureSettings(database.db);
  await allowBlastingAnyTime(database.db);
  member = await createUser(database.db, { role: 'member' });
  const log = createLogger('silent');
  // the API is a producer only: the sessions live in the worker processes
  infra = createInfra(redisUrl, log, prefix);
  app = createApp({
    db: database.db,
    jwtSecret: TEST_JWT_SECRET,
    logger: log,
    dataDir: tmpdir(),
    ...infra,
    monitor: { simulator: true },
  });
  dev = await createUser(database.db, { role: 'dev' });
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

/** SIGKILLs the live worker that holds the most accounts; false when there was none. */
async function killBusiestWorker(): Promise<boolean> {
  const held = await rows<{ worker_id: string }>(database.db, sql`select worker_id from whatsapp_accounts`);
  const perPid = new Map<number, number>();
  for (const h of held) {
    const pid = Number(h.worker_id.split('-').at(-2));
    perPid.set(pid, (perPid.get(pid) ?? 0) + 1);
  }
  const victimPid = [...perPid.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const victim = workers.find((w) => w.child.pid === victimPid && w.child.exitCode === null);
  if (!victim) return false;
  victim.child.kill('SIGKILL');
  await victim.exited;
  return true;
}

/** Waits until every target is sent and no account is still sending (the blasts moved and ended). */
async function everyBlastFinished(): Promise<void> {
  await waitFor(
    async () => {
      const r = await rows<{ left: number; sending: number }>(
        database.db,
        sql`select (select count(*)::int from phone_numbers where last_sent is null) as left,
                   (select count(*)::int from whatsapp_accounts where status = 'sending') as sending`,
      );
      return (r[0]?.left === 0 && r[0]?.sending === 0) || null;
    },
    90_000,
    `every target sent and every blast finished\n${workers.map((w) => w.output().slice(-2000)).join('\n---\n')}`,
  );
}

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
    // nobody else is alive to take them: a restore is never dropped as lost (a renewal on its way
    // while the sweep claimed used to count the fresh claims as lost, again and again)
    expect(survivor?.output()).not.toMatch(/lease lost while restoring/);
  }, 120_000);
});

describe('a blast across a worker crash', () => {
  it('messages every target once and pays every delivery, when the worker blasting dies mid-run', async () => {
    // a fresh worker beside the survivor of the test above, which holds every account now
    const fresh = startWorker();
    workers.push(fresh);
    await waitFor(
      async () => fresh.output().includes('worker ready'),
      60_000,
      () => `the new worker ready\n${fresh.output().slice(-4000)}`,
    );
    const total = 1200;
    await database.db.execute(
      sql`insert into message_templates (text, text_wa, status) values ('Halo', 'Halo {name}', 'active')`,
    );
    await database.db.execute(sql`insert into phone_numbers (number, name)
      select '62877' || lpad(g::text, 8, '0'), 'T' || g from generate_series(1, ${total}) g`);
    await database.db.execute(
      sql`update users set blast_fee = 100, blast_interval_min = 0, blast_interval_max = 0 where id = ${member.id}`,
    );
    const accounts = await rows<{ clientid: string }>(database.db, sql`select clientid from whatsapp_accounts`);
    for (const a of accounts) {
      const res = await request(app)
        .post('/api/admin/whatsapp/start-blasting')
        .set(bearer(member.token))
        .send({ whatsappClientId: a.clientid, socketClientId: `client-${member.id}`, loop: true });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const settled = () =>
      rows<{ n: number }>(database.db, sql`select count(*)::int as n from message_logs where status <> 'pending'`).then(
        (r) => r[0]?.n ?? 0,
      );
    await waitFor(async () => (await settled()) >= 150, 30_000, 'the blast under way');

    // kill the worker holding the most accounts while it sends
    expect(await killBusiestWorker()).toBe(true);
    const atKill = await settled();
    expect(atKill).toBeLessThan(total);

    // the accounts move to the other worker and their blasts carry on to the end
    await everyBlastFinished();

    // once per target: one settled log each, none pending, none claimed
    const perTarget = await rows<{ logs: number; targets: number; pending: number; in_use: number }>(
      database.db,
      sql`select (select count(*)::int from (select phone_number_id from message_logs
                   group by phone_number_id having count(*) > 1) d) as logs,
                 (select count(distinct phone_number_id)::int from message_logs) as targets,
                 (select count(*)::int from message_logs where status = 'pending') as pending,
                 (select count(*)::int from phone_numbers where in_use <> 0) as in_use`,
    );
    expect(perTarget[0]).toEqual({ logs: 0, targets: total, pending: 0, in_use: 0 });
    // every delivery paid: the accounts' counters and income match the log, 100 a message
    const money = await rows<{ success: number; fee: number; counted: number; income: number }>(
      database.db,
      sql`select (select count(*)::int from message_logs where status in ('sent', 'delivered', 'read')) as success,
                 (select coalesce(sum(fee), 0)::int from message_logs where status in ('sent', 'delivered', 'read')) as fee,
                 (select sum(count_success)::int from whatsapp_accounts) as counted,
                 (select sum(income)::int from whatsapp_accounts) as income`,
    );
    const m = money[0];
    expect(m?.fee).toBe((m?.success ?? 0) * 100);
    expect(m?.counted).toBe(m?.success);
    expect(m?.income).toBe(m?.fee);
    expect(m?.success).toBeGreaterThan(total * 0.8);
    // the ledger's day rows are exactly what a full recount of the log makes them
    // in one snapshot: a read receipt still on its way lands in both reads or in neither
    const daily = await database.db.transaction(
      async (tx) => ({ stored: await storedDaily(tx), recount: await recountDaily(tx, DEFAULT_TIMEZONE) }),
      { isolationLevel: 'repeatable read' },
    );
    expect(daily.stored).toEqual(daily.recount);
    expect(await rollupDifferences(database.db, DEFAULT_TIMEZONE)).toEqual([]);
  }, 180_000);
});

describe('payout on delivery across a worker crash', () => {
  it('pays each delivered message exactly once, whichever worker hears its receipt and however often', async () => {
    await database.db.execute(sql`update settings set payout_on = 'delivered'`);
    const fresh = startWorker();
    workers.push(fresh);
    await waitFor(
      async () => fresh.output().includes('worker ready'),
      60_000,
      () => `the new worker ready\n${fresh.output().slice(-4000)}`,
    );
    const batch = 600;
    await database.db.execute(sql`insert into phone_numbers (number, name)
      select '62878' || lpad(g::text, 8, '0'), 'D' || g from generate_series(1, ${batch}) g`);
    const accounts = await rows<{ clientid: string }>(database.db, sql`select clientid from whatsapp_accounts`);
    for (const a of accounts) {
      const res = await request(app)
        .post('/api/admin/whatsapp/start-blasting')
        .set(bearer(member.token))
        .send({ whatsappClientId: a.clientid });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const ours = sql`target like '62878%'`;
    await waitFor(
      async () =>
        ((
          await rows<{ n: number }>(
            database.db,
            sql`select count(*)::int as n from message_logs where ${ours} and status <> 'pending'`,
          )
        )[0]?.n ?? 0) >= 100 || null,
      30_000,
      'the blast under way',
    );
    // kill the worker holding the most accounts while its messages wait for their receipts
    expect(await killBusiestWorker()).toBe(true);
    await everyBlastFinished();
    await waitFor(
      async () =>
        ((
          await rows<{ n: number }>(
            database.db,
            sql`select count(*)::int as n from message_logs where ${ours} and status = 'pending'`,
          )
        )[0]?.n ?? 1) === 0 || null,
      20_000,
      'every send recorded',
    );

    type Money = { paid: number; paid_n: number; due: number; sent_n: number; ref: number };
    const money = async (db: Db = database.db) =>
      (
        await rows<Money>(
          db,
          sql`select coalesce(sum(fee) filter (where ${ours}), 0)::int as paid,
                     count(*) filter (where ${ours} and status in ('delivered', 'read'))::int as paid_n,
                     coalesce(sum(fee_due) filter (where ${ours}), 0)::int as due,
                     count(*) filter (where ${ours} and status = 'sent')::int as sent_n,
                     coalesce(sum(fee) filter (where ${ours} and status in ('sent', 'failed', 'unknown')), 0)::int as ref
              from message_logs`,
        )
      )[0] as Money;
    // what is paid and what still waits for its receipt, read in one snapshot: the survivors' own
    // receipts (SIM_ACK_DELAY_MS after each send) may still land, each then in both reads or in neither
    const { before, waiting } = await database.db.transaction(
      async (tx) => ({
        before: await money(tx),
        waiting: await rows<{ wa_message_id: string; clientid: string }>(
          tx,
          sql`select m.wa_message_id, w.clientid from message_logs m join whatsapp_accounts w on w.id = m.whatsapp_id
              where m.target like '62878%' and m.status = 'sent'`,
        ),
      }),
      { isolationLevel: 'repeatable read' },
    );
    // paid exactly for what was delivered; what still waits holds its fee
    expect(before.paid).toBe(before.paid_n * 100);
    expect(before.ref).toBe(0);
    expect(before.due).toBe(before.sent_n * 100);
    // some messages the killed worker sent never got their receipt there
    expect(before.sent_n).toBeGreaterThan(0);

    expect(waiting).toHaveLength(before.sent_n);
    // WhatsApp sends the receipts it still owes to whichever worker holds each session now, twice
    for (const round of [1, 2]) {
      for (const m of waiting) {
        const res = await request(app)
          .post(`/api/dev/sim/${m.clientid}`)
          .set(bearer(dev.token))
          .send({ action: 'ack', messageId: m.wa_message_id, ack: round === 1 ? 'delivered' : 'read' });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
    }
    await waitFor(async () => (await money()).sent_n === 0 || null, 20_000, 'every owed receipt settled');
    const after = await money();
    expect(after).toEqual({ paid: after.paid_n * 100, paid_n: after.paid_n, due: 0, sent_n: 0, ref: 0 });
    expect(after.paid).toBe(before.paid + waiting.length * 100);
    // the accounts' income, the member's balance and the ledger agree with the log to the rupiah
    const [t] = await rows<{ fees: number; income: number }>(
      database.db,
      sql`select (select coalesce(sum(fee), 0)::int from message_logs) as fees,
                 (select sum(income)::int from whatsapp_accounts) as income`,
    );
    expect(t.income).toBe(t.fees);
    const balance = await request(app).get(`/api/admin/withdraw/balance/${member.id}`).set(bearer(member.token));
    expect(balance.body.balance).toBe(t.fees);
    // in one snapshot: a read receipt still on its way lands in both reads or in neither
    const daily = await database.db.transaction(
      async (tx) => ({ stored: await storedDaily(tx), recount: await recountDaily(tx, DEFAULT_TIMEZONE) }),
      { isolationLevel: 'repeatable read' },
    );
    expect(daily.stored).toEqual(daily.recount);
    expect(await rollupDifferences(database.db, DEFAULT_TIMEZONE)).toEqual([]);
  }, 180_000);
});
