// Benchmark: blast throughput of real worker processes (`npm run worker`) sharing PostgreSQL and
// Redis, with receipts on: BENCH_WORKERS processes hold BENCH_ACCOUNTS simulated accounts between
// them (WhatsApp made instant: no send latency; receipts by the simulator's defaults, 95%
// delivered and 60% of those read, 1 s after the send) and blast at zero interval. Reports the
// messages settled per second, that nothing was sent twice, and that the ledger's day rows equal
// a full recount of the log afterwards.
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 \
//     BENCH_WORKERS=2 npx tsx bench/blast-workers.ts
// BENCH_WORKERS (1), BENCH_ACCOUNTS (20), BENCH_TARGETS (300000), BENCH_SECONDS (15),
// BENCH_PAYOUT ('accepted' | 'delivered'), BENCH_WORKER_CPU (cores each worker may use, e.g. 0.3:
// a budget of its own through a cgroup, as a worker alone on a small host; unset: no cap),
// BENCH_CPU_PROFILE_DIR (each worker writes a V8 CPU profile there: node --cpu-prof),
// BENCH_YARDSTICK_SECONDS (10: each of the four pgbench runs)
// Yardsticks, measured in the same run with pgbench from as many clients as accounts, unprepared and
// prepared: a minimal one-transaction design — claim a target with SKIP LOCKED, insert a log, mark
// the target, count on the account — on tables of its own in the same database
// (bench/yardstick-blast.sql), and the same design on the product's schema, in a freshly migrated
// database with an account per client (bench/yardstick-blast-schema.sql).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_TIMEZONE } from '@wa/core/config';
import { recountDaily, storedDaily } from '@wa/core/ledger/daily';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import request from 'supertest';
import { openDatabase, rows } from '../core/src/db/client';
import { createInfra } from '../core/src/jobs/index';
import { createLogger } from '../core/src/logger';
import { createApp } from '../server/src/app';
import { ensureSettings } from '../server/src/bootstrap';
import { bearer } from '../tests/support/api';
import { allowBlastingAnyTime } from '../tests/support/db';
import { createUser, TEST_JWT_SECRET } from '../tests/support/factories';
import { blastYardsticks, printYardsticks } from './blast-support';
import { type CpuCap, capCpu, cpuBetween, cpuSnapshot, ROOT } from './support';

const baseUrl = process.env.BENCH_DATABASE_URL;
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
if (!baseUrl) throw new Error('BENCH_DATABASE_URL is required: worker processes share one PostgreSQL');
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 20);
const TARGETS = Number(process.env.BENCH_TARGETS ?? 300_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const PAYOUT = process.env.BENCH_PAYOUT === 'delivered' ? 'delivered' : 'accepted';
const WORKER_CPU = process.env.BENCH_WORKER_CPU ? Number(process.env.BENCH_WORKER_CPU) : null;
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE_DIR;
const YARDSTICK_SECONDS = Number(process.env.BENCH_YARDSTICK_SECONDS ?? 10);

const dbName = `wa_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
const dbUrl = (() => {
  const u = new URL(baseUrl);
  u.pathname = `/${dbName}`;
  return u.toString();
})();
const prefix = `wa-bench-${randomBytes(3).toString('hex')}`;

function startWorker(
  _: unknown,
  i: number,
): { child: ChildProcess; out: () => string; dataDir: string; cap: CpuCap | null } {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wa-bench-'));
  const child = spawn(
    process.execPath,
    [...(PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []), '--import', 'tsx', 'workers/src/main.ts'],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: dataDir,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: prefix,
        DATABASE_URL: dbUrl,
        WA_DRIVER: 'sim',
        SIM_PAIR_DELAY_MS: '50',
        SIM_RESTORE_DELAY_MS: '10',
        SIM_SEND_LATENCY_MS: '0',
        SIM_SEND_FAIL_RATE: '0',
        WA_BLAST_SECOND_MS: '1',
        // 'worker ready' is an info line
        LOG_LEVEL: 'info',
      },
    },
  );
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const cap = WORKER_CPU && child.pid ? capCpu(child.pid, WORKER_CPU, `${prefix}-worker-${i}`) : null;
  return { child, out: () => out, dataDir, cap };
}

async function waitFor<T>(check: () => Promise<T | null | false>, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main() {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const database = await openDatabase({ databaseUrl: dbUrl, pgliteDir: '' });
  const db = database.db;
  await ensureSettings(db);
  await allowBlastingAnyTime(db);
  await db.execute(sql`update settings set payout_on = ${PAYOUT}`);
  const member = await createUser(db, { role: 'member' });
  const log = createLogger('silent');
  const infra = createInfra(redisUrl, log, prefix);
  const app = createApp({ db, jwtSecret: TEST_JWT_SECRET, logger: log, dataDir: tmpdir(), ...infra });
  const workers = Array.from({ length: WORKERS }, startWorker);
  try {
    for (const w of workers) {
      await waitFor(async () => w.out().includes('worker ready'), 60_000, `worker ready:\n${w.out()}`);
    }
    const authenticated = new Map<string, (info: Record<string, string>) => void>();
    await infra.bus.subscribe(`ws:client-${member.id}`, (m) => {
      const msg = m as { event: string; payload: { deviceId: string; clientInfo: Record<string, string> } };
      if (msg.event === 'authenticated') authenticated.get(msg.payload.deviceId)?.(msg.payload.clientInfo);
    });
    const clientIds: string[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const deviceId = `id-${Date.now()}-${1000 + i}`;
      const info = new Promise<Record<string, string>>((resolve) => authenticated.set(deviceId, resolve));
      const api = (p: string) => request(app).post(`/api/admin/whatsapp/${p}`).set(bearer(member.token));
      if ((await api('new-client').send({ deviceId })).status !== 201) throw new Error('new-client refused');
      await request(app).get(`/api/admin/whatsapp/qr-new-client/${deviceId}`).set(bearer(member.token));
      const saved = await api('save').send({ clientid: deviceId, ...(await info) });
      if (saved.status !== 201) throw new Error(`save refused: ${JSON.stringify(saved.body)}`);
      clientIds.push(deviceId);
    }
    await waitFor(
      async () =>
        (
          await rows<{ n: number }>(db, sql`select count(*)::int as n from whatsapp_accounts where state = 'connected'`)
        )[0]?.n === ACCOUNTS || null,
      60_000,
      'every account connected',
    );
    const holders = await rows<{ worker_id: string; n: number }>(
      db,
      sql`select worker_id, count(*)::int as n from whatsapp_accounts group by 1`,
    );
    await db.execute(
      sql`insert into message_templates (text, text_wa, status) values ('Halo', 'Halo {name}', 'active')`,
    );
    await db.execute(sql`insert into phone_numbers (number, name)
      select '62877' || lpad(g::text, 9, '0'), 'T' || g from generate_series(1, ${TARGETS}) g`);
    await db.execute(sql`update users set blast_fee = 100, blast_interval_min = 0, blast_interval_max = 0`);
    await db.execute(sql`analyze phone_numbers`);

    const settled = async () =>
      (await rows<{ n: number }>(db, sql`select count(*)::int as n from message_logs`))[0]?.n ?? 0;
    for (const c of clientIds) {
      const res = await request(app)
        .post('/api/admin/whatsapp/start-blasting')
        .set(bearer(member.token))
        .send({ whatsappClientId: c });
      if (res.status !== 200) throw new Error(`start refused: ${JSON.stringify(res.body)}`);
    }
    await new Promise((r) => setTimeout(r, 3000)); // warm-up
    const n0 = await settled();
    const t0 = performance.now();
    const cpu0 = cpuSnapshot();
    const throttled0 = workers.map((w) => w.cap?.throttled() ?? 0);
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    const n1 = await settled();
    const secs = (performance.now() - t0) / 1000;
    const workerOf = new Map(workers.map((w, i) => [w.child.pid, i]));
    const used = cpuBetween(cpu0, cpuSnapshot(), secs, (pid, comm) => {
      if (workerOf.has(pid)) return `worker${workerOf.get(pid)}`;
      if (pid === process.pid) return 'api';
      if (comm === 'postgres') return 'postgres';
      if (comm === 'redis-server') return 'redis';
      return null;
    });
    const cpu = {
      workers: workers.map((_, i) => used[`worker${i}`] ?? 0),
      postgres: used.postgres ?? 0,
      api: used.api ?? 0,
      redis: used.redis ?? 0,
      other: used.other ?? 0,
      idle: used.idle ?? 0,
    };
    // the share of the run's 100 ms periods in which a capped worker used its whole budget
    const throttledShare = workers.map((w, i) =>
      w.cap ? Number(((w.cap.throttled() - (throttled0[i] ?? 0)) / (secs * 10)).toFixed(2)) : null,
    );
    for (const c of clientIds) {
      await request(app)
        .post('/api/admin/whatsapp/stop-blasting')
        .set(bearer(member.token))
        .send({ whatsappClientId: c });
    }
    await new Promise((r) => setTimeout(r, 3000)); // the last receipts (1 s after their send)
    const [check] = await rows<{
      twice: number;
      in_use: number;
      receipted: number;
      logs: number;
      paid: number;
      fees: number;
    }>(
      db,
      sql`select (select count(*)::int from (select phone_number_id from message_logs group by 1 having count(*) > 1) d) as twice,
                 (select count(*)::int from phone_numbers where in_use <> 0) as in_use,
                 (select count(*)::int from message_logs where status in ('delivered', 'read')) as receipted,
                 (select count(*)::int from message_logs) as logs,
                 (select coalesce(sum(income), 0)::bigint from whatsapp_accounts) as paid,
                 (select coalesce(sum(fee), 0)::bigint from message_logs) as fees`,
    );
    const messagesPerSecond = Math.round((n1 - n0) / secs);
    const ledgerExact =
      JSON.stringify(await storedDaily(db)) === JSON.stringify(await recountDaily(db, DEFAULT_TIMEZONE));
    console.log(
      JSON.stringify({
        workers: WORKERS,
        accounts: ACCOUNTS,
        perWorker: holders.map((h) => h.n),
        payoutOn: PAYOUT,
        targets: TARGETS,
        seconds: Number(secs.toFixed(1)),
        messagesPerSecond,
        cpuPercentOfOneCore: cpu,
        workerCpuCap: WORKER_CPU,
        throttledShare,
        sentTwice: check?.twice,
        claimsLeft: check?.in_use,
        receiptedShare: Number(((check?.receipted ?? 0) / Math.max(1, check?.logs ?? 1)).toFixed(3)),
        accountsIncomeMatchesLog: Number(check?.paid) === Number(check?.fees),
        ledgerMatchesRecount: ledgerExact,
      }),
    );
    // the yardsticks: the minimal design's tables beside ours, in the same database; then the same
    // design on the product's schema, in a database of its own
    printYardsticks(messagesPerSecond, await blastYardsticks(ACCOUNTS, YARDSTICK_SECONDS, dbUrl));
  } finally {
    for (const w of workers) {
      // a worker writes its profile when it exits on its own (SIGTERM), not when killed
      if (PROFILE_DIR) {
        w.child.kill('SIGTERM');
        await new Promise((r) => w.child.once('exit', r));
      }
      w.child.kill('SIGKILL');
      rmSync(w.dataDir, { recursive: true, force: true });
    }
    await new Promise((r) => setTimeout(r, 200));
    for (const w of workers) {
      w.cap?.remove();
    }
    await infra.queue.close();
    await infra.bus.close();
    await database.close();
    const a = new pg.Client({ connectionString: baseUrl });
    await a.connect();
    if (!process.env.BENCH_KEEP_DB) await a.query(`drop database if exists ${dbName} with (force)`);
    else console.log(JSON.stringify({ kept: dbName }));
    await a.end();
  }
}

await main();
process.exit(0);
