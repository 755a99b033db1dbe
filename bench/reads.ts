// Benchmark: the read routes of issues 11 and 23 at 10,000,000 message logs over 90 days (or
// BENCH_DAYS) — the dashboard counters and balances (a median member, the heavy member, admin 'all'),
// the report and its charts, the members list and the message-log list with each filter — timed
// through supertest against createApp on PostgreSQL, uncached, with the ledger folded as an engine
// folds it (core/src/ledger/rollups.ts).
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/reads.ts
//   BENCH_KEEP_DB=1 …   keep the database (wa_bench_reads, or BENCH_DB_NAME) and reuse its load next time
// BENCH_LOGS (10000000), BENCH_DAYS (90; 365 for the doubled history), BENCH_REQUESTS (200 per route,
// after 20 warm-up), BENCH_ROUTE_SECONDS (60: a slow route stops after this long, with at least 10
// requests), BENCH_RELOAD=1 (reload a kept database).
// Targets (issue 23): charts of any scope p95 < 20 ms; the admin 'all' counters < 10 ms (and flat from
// 90 to 365 days); every other counter < 20 ms; every message-log and report filter < 50 ms.
// Yardstick in the same run: `select 1` and a primary-key lookup on message_logs through the app's own
// pool, and GET /api/health through the same supertest path.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import request from 'supertest';
import { openDatabase, rows } from '../core/src/db/client';
import { rebuildDaily } from '../core/src/ledger/daily';
import { foldLedger } from '../core/src/ledger/rollups';
import { createLogger } from '../core/src/logger';
import { createApp } from '../server/src/app';
import { signToken } from '../server/src/auth/tokens';
import { ensureSettings } from '../server/src/bootstrap';
import { bearer } from '../tests/support/api';
import { percentile } from './support';

const LOGS = Number(process.env.BENCH_LOGS ?? 10_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARMUP = 20;
const ROUTE_SECONDS = Number(process.env.BENCH_ROUTE_SECONDS ?? 60);
const KEEP = process.env.BENCH_KEEP_DB === '1';
const TZ = 'Asia/Jakarta';
const MEMBERS = 5_000;
const ACCOUNTS = 2_000;
const HEAVY_ACCOUNTS = 200; // member 1: every tenth message
const MEDIAN_ACCOUNTS = 3; // member 2
const OTHER_OWNERS = 600; // the other 1,797 accounts belong to members 3…602, about 3 each
const PHONES = 1_000_000;
const DAYS = Number(process.env.BENCH_DAYS ?? 90);
const SECRET = 'bench-reads-secret';

const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/**
 * The data set, set-based inside PostgreSQL. Ids are consecutive from the first of each table (a
 * fresh database), so member g is `mbase + g - 1` and account a is `wbase + a - 1`. Message ids follow
 * created_at (as they do when the engine writes them), spread evenly over the last 90 days.
 */
async function loadData(c: pg.Client): Promise<void> {
  const q = async (label: string, text: string, values: unknown[] = []) => {
    const t = performance.now();
    const r = await c.query(text, values);
    console.log(`  ${label}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
    return r;
  };
  await c.query(`set synchronous_commit = off`);
  await c.query(`set maintenance_work_mem = '1GB'`);
  await c.query(`set work_mem = '256MB'`);

  await q(
    'users',
    `insert into users (firstname, lastname, email, password_hash, role, referral_code, created_at, updated_at)
     values ('Bench', 'Admin', 'reads-admin@bench.test', 'x', 'admin', 'RBADMIN', now() - interval '400 days', now())`,
  );
  await c.query(
    `insert into users (firstname, lastname, email, password_hash, role, referral_code, created_at, updated_at)
     select 'Member', 'No ' || g, 'member' || g || '@bench.test', 'x', 'member', 'RB' || g,
       now() - interval '400 days' + g * interval '1 hour', now()
     from generate_series(1, $1::int) g order by g`,
    [MEMBERS],
  );
  const { rows: mb } = await c.query(
    `select min(id)::int as base, max(id)::int as top from users where role = 'member'`,
  );
  const mbase = mb[0].base as number;
  if (mb[0].top - mbase !== MEMBERS - 1) throw new Error('member ids are not consecutive: use a fresh database');
  const heavy = mbase;
  // 30% of members were referred: every 50th by the heavy member, the others by member (g·31 mod 5000)+1
  await c.query(
    `update users u set referrer_id = case when x.g % 50 = 1 and x.g <> 1 then $2::int else $1::int + (x.g * 31) % $3::int end
     from (select id, id - $1::int + 1 as g from users where role = 'member') x
     where u.id = x.id and x.g % 10 in (1, 4, 7)`,
    [mbase, heavy, MEMBERS],
  );
  await q(
    'whatsapp_accounts',
    `insert into whatsapp_accounts (clientid, user_id, phonenumber, pushname, state, status, created_at, updated_at)
     select 'bench-' || a,
       $1::int - 1 + case when a <= $2::int then 1 when a <= $2::int + $3::int then 2
                          else 3 + ((a::bigint * 7919) % $4::int)::int end,
       '6281' || lpad(a::text, 9, '0'), 'Akun ' || a,
       case when a % 4 = 0 then 'connected' else 'disconnected' end, 'idle', now() - interval '120 days', now()
     from generate_series(1, $5::int) a order by a`,
    [mbase, HEAVY_ACCOUNTS, MEDIAN_ACCOUNTS, OTHER_OWNERS, ACCOUNTS],
  );
  const { rows: wb } = await c.query(`select min(id)::int as base from whatsapp_accounts`);
  const wbase = wb[0].base as number;
  await q(
    'phone_numbers',
    `insert into phone_numbers (number, name, count_success, last_sent)
     select '62812' || lpad(g::text, 8, '0'), 'Pelanggan ' || g, 10, now() - interval '1 day'
     from generate_series(1, $1::int) g`,
    [PHONES],
  );
  const { rows: tp } = await c.query(
    `insert into message_templates (text, text_wa, status) values ('Halo', 'Halo {name}', 'active') returning id`,
  );

  // the log's secondary indexes are built once after the load (the same definitions, read back)
  const { rows: defs } = await c.query(
    `select indexname, indexdef from pg_indexes
     where schemaname = 'public' and tablename = 'message_logs' and indexname <> 'message_logs_pkey'`,
  );
  for (const d of defs) await c.query(`drop index ${d.indexname}`);
  // foreign keys are not checked row by row for the load (every id is made to exist above)
  await c.query(`set session_replication_role = replica`);
  const t0 = new Date(Date.now() - DAYS * 86_400_000).toISOString();
  const step = (DAYS * 86_400) / LOGS; // seconds between two messages
  const CHUNK = 1_000_000;
  for (let from = 1; from <= LOGS; from += CHUNK) {
    const to = Math.min(LOGS, from + CHUNK - 1);
    // status from a hash of g: 30% read, 30% delivered, 34.9% sent, 5% failed, 0.1% unknown (no log
    // is pending: the engine logs a message with its outcome). Every tenth message is the heavy member's (200 accounts), the rest spread
    // over the other 1,800 accounts.
    await q(
      `message_logs ${from.toLocaleString('en')}…${to.toLocaleString('en')}`,
      `insert into message_logs (id, user_id, whatsapp_id, phone_number_id, template_id, target, status, fee,
         referrer_id, referral_fee, error, text, wa_message_id, sent_at, delivered_at, read_at, created_at)
       select x.g, w.user_id, w.id, x.pn, $1::int, '62812' || lpad(x.pn::text, 8, '0'), x.status,
         case when x.paid then 100 else 0 end, u.referrer_id,
         case when x.paid and u.referrer_id is not null then 10 else 0 end,
         case when x.status = 'failed' then 'Nomor tidak terdaftar di WhatsApp' end,
         'Halo Pelanggan ' || x.pn || ', promo akhir tahun: diskon 20% untuk semua produk. Balas STOP untuk berhenti.',
         case when x.status not in ('pending', 'failed') then '3EB0' || lpad(to_hex(x.g), 16, '0') end,
         case when x.paid then x.t + interval '1 second' end,
         case when x.status in ('delivered', 'read') then x.t + interval '4 seconds' end,
         case when x.status = 'read' then x.t + interval '2 minutes' end,
         x.t
       from (
         select s.g, s.pn, s.acct, s.t, s.status, s.status in ('sent', 'delivered', 'read') as paid
         from (
           select h.*, case when h.h < 1 then 'unknown'
                            when h.h < 51 then 'failed' when h.h < 400 then 'sent' when h.h < 700 then 'delivered'
                            else 'read' end as status
           from (
             select g, 1 + (g % $2::int) as pn, $3::timestamptz + ((g - 1) * $4::float8) * interval '1 second' as t,
               $5::int - 1 + case when g % 10 = 0 then 1 + (g / 10) % $6::int
                                  else $6::int + 1 + ((hashint4(g)::bigint + 2147483648) % ($7::int - $6::int))::int end
                 as acct,
               (hashint4(g + 1000000007)::bigint + 2147483648) % 1000 as h
             from generate_series($8::int, $9::int) g
           ) h
         ) s
       ) x
       join whatsapp_accounts w on w.id = x.acct
       join users u on u.id = w.user_id`,
      [tp[0].id, PHONES, t0, step, wbase, HEAVY_ACCOUNTS, ACCOUNTS, from, to],
    );
  }
  await c.query(`set session_replication_role = origin`);
  await c.query(`select setval(pg_get_serial_sequence('message_logs', 'id'), $1::int)`, [LOGS]);
  for (const d of defs) await q(`index ${d.indexname}`, d.indexdef);

  await q(
    'incoming_messages (20,000, a tenth opt-outs)',
    `insert into incoming_messages (whatsapp_id, phone_number_id, sender, text, optout, created_at)
     select $1::int + (hashint4(g)::bigint + 2147483648) % $2::int, 1 + (g * 37) % $3::int,
       '62812' || lpad((1 + (g * 37) % $3::int)::text, 8, '0'),
       case when g % 10 = 0 then 'STOP' else 'Terima kasih' end, g % 10 = 0,
       $4::timestamptz + (g - 1) * ($5::float8 * interval '1 day') / 20000
     from generate_series(1, 20000) g`,
    [wbase, ACCOUNTS, PHONES, t0, DAYS],
  );
  const { rows: ad } = await c.query(`select id from users where role = 'admin' order by id limit 1`);
  await q(
    'bonuses (20,000)',
    `insert into bonuses (user_id, admin_id, nominal, reason, created_at)
     select $1::int + (hashint4(g)::bigint + 2147483648) % $2::int, $3::int, 5000 * (1 + g % 10), 'Bonus mingguan',
       now() - (g % 90) * interval '1 day'
     from generate_series(1, 20000) g`,
    [mbase, MEMBERS, ad[0].id],
  );
  await q(
    'withdrawals (10,000)',
    `insert into withdrawals (user_id, nominal, status, account_name, account_bank, account_number, created_at, updated_at)
     select $1::int + g % ($2::int + 3), 50000 * (1 + g % 4),
       case when g % 10 = 0 then 'requested' when g % 10 = 1 then 'rejected' else 'accepted' end,
       'Member ' || g, 'BCA', '1234' || lpad(g::text, 6, '0'), now() - (g % 90) * interval '1 day', now()
     from generate_series(1, 10000) g`,
    [mbase, OTHER_OWNERS],
  );
}

interface Result {
  route: string;
  who: string;
  target: number | null;
  n: number;
  p50: number;
  p95: number;
  max: number;
}

async function main() {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) throw new Error('set BENCH_DATABASE_URL (a PostgreSQL server; a database is created there)');
  const dbName =
    process.env.BENCH_DB_NAME ??
    (KEEP ? `wa_bench_reads${DAYS === 90 ? '' : `_${DAYS}d`}` : `wa_bench_reads_${Date.now()}`);
  const url = new URL(base);
  url.pathname = `/${dbName}`;
  console.log(JSON.stringify({ database: dbName, keep: KEEP, logs: LOGS, days: DAYS, loadAverage: load() }));

  // a kept database is reused when it holds a finished load of the same size; otherwise made afresh
  const server0 = new pg.Client({ connectionString: base });
  await server0.connect();
  const exists = (await server0.query('select 1 from pg_database where datname = $1', [dbName])).rowCount === 1;
  let loaded = false;
  if (exists && KEEP && process.env.BENCH_RELOAD !== '1') {
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    const r = await c
      .query(`select logs, loaded_at, load_seconds from bench_reads_meta`)
      .catch(() => ({ rows: [] as Array<{ logs: number; loaded_at: Date; load_seconds: string }> }));
    await c.end();
    if (r.rows[0] && Number(r.rows[0].logs) === LOGS) {
      loaded = true;
      console.log(
        JSON.stringify({ reusing: dbName, loadedAt: r.rows[0].loaded_at, loadSeconds: Number(r.rows[0].load_seconds) }),
      );
    }
  }
  if (!loaded) {
    if (exists) await server0.query(`drop database ${dbName} with (force)`);
    await server0.query(`create database ${dbName}`);
  }
  await server0.end();

  const database = await openDatabase({ databaseUrl: url.toString(), pgliteDir: '' });
  const db = database.db;
  if (!loaded) {
    await ensureSettings(db);
    console.log(`loading ${LOGS.toLocaleString('en')} message logs (load average ${load()})`);
    const t = performance.now();
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    await loadData(c);
    const tr = performance.now();
    await rebuildDaily(db, TZ);
    console.log(`  rebuildDaily: ${((performance.now() - tr) / 1000).toFixed(1)} s`);
    const tv = performance.now();
    await c.query('vacuum analyze');
    console.log(`  vacuum analyze: ${((performance.now() - tv) / 1000).toFixed(1)} s`);
    const seconds = (performance.now() - t) / 1000;
    await c.query(
      `create table bench_reads_meta (logs int not null, loaded_at timestamptz not null, load_seconds numeric)`,
    );
    await c.query(`insert into bench_reads_meta values ($1, now(), $2)`, [LOGS, seconds.toFixed(1)]);
    await c.end();
    console.log(JSON.stringify({ loaded: LOGS, loadTime: minutes(seconds * 1000), loadAverage: load() }));
  }

  // the fold an engine makes every LEDGER_FOLD_MS (its cost is the engine's, once a minute, not a reader's)
  const tf = performance.now();
  await foldLedger(db, TZ);
  const firstFold = performance.now() - tf;
  const tf2 = performance.now();
  await foldLedger(db, TZ);
  const fold = { firstMs: Math.round(firstFold), againMs: Math.round(performance.now() - tf2) };
  await db.execute(sql`vacuum analyze ledger_days`);
  await db.execute(sql`vacuum analyze ledger_totals`);
  await db.execute(sql`vacuum analyze ledger_hours`);
  await db.execute(sql`vacuum analyze account_hourly`);
  console.log(JSON.stringify({ fold }));

  // who reads: the admin, the heavy member (200 accounts, a tenth of the log), a median member (3 accounts)
  const one = async <T>(q: ReturnType<typeof sql>) => (await rows<T>(db, q))[0];
  const admin = await one<{ id: number }>(sql`select id from users where role = 'admin' order by id limit 1`);
  const heavy = await one<{ id: number }>(sql`select id from users where email = 'member1@bench.test'`);
  const median = await one<{ id: number }>(sql`select id from users where email = 'member2@bench.test'`);
  const acct = await one<{ id: number; n: number }>(
    sql`select w.id, count(*)::int as n from whatsapp_accounts w join message_logs m on m.whatsapp_id = w.id
        where w.user_id = ${median.id} group by w.id order by w.id limit 1`,
  );
  const heavyAcct = await one<{ id: number }>(
    sql`select id from whatsapp_accounts where user_id = ${heavy.id} order by id limit 1`,
  );
  const sizes = await one<Record<string, unknown>>(
    sql`select (select count(*) from account_daily)::int as day_rows,
               (select count(*) from account_hourly)::int as hour_rows,
               (select count(*) from message_logs where user_id = ${heavy.id})::int as heavy_logs,
               (select count(*) from message_logs where user_id = ${median.id})::int as median_logs,
               (select count(*) from whatsapp_accounts where user_id = ${median.id})::int as median_accounts,
               (select sum(sent + failed + unknown) from account_daily)::bigint as settled,
               (select sum(failed) from account_daily)::bigint as failed,
               pg_size_pretty(pg_total_relation_size('message_logs')) as log_size`,
  );
  console.log(JSON.stringify({ admin: admin.id, heavy: heavy.id, median: median.id, medianAccount: acct, ...sizes }));

  const dataDir = mkdtempSync(path.join(tmpdir(), 'wa-bench-reads-'));
  const app = createApp({ db, jwtSecret: SECRET, logger: createLogger('silent'), dataDir, timezone: TZ });
  // one listening server for every request (supertest would otherwise listen and close per request)
  const http: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const token = {
    admin: signToken(SECRET, { id: admin.id, role: 'admin' }),
    heavy: signToken(SECRET, { id: heavy.id, role: 'member' }),
    median: signToken(SECRET, { id: median.id, role: 'member' }),
  };

  const results: Result[] = [];
  const measure = async (label: string, who: string, target: number | null, once: () => Promise<void>) => {
    const started = performance.now();
    for (let i = 0; i < WARMUP && performance.now() - started < 10_000; i++) await once();
    const times: number[] = [];
    const t0 = performance.now();
    while (times.length < REQUESTS && (times.length < 10 || performance.now() - t0 < ROUTE_SECONDS * 1000)) {
      const t = performance.now();
      await once();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const r: Result = {
      route: label,
      who,
      target,
      n: times.length,
      p50: Number(percentile(times, 50).toFixed(2)),
      p95: Number(percentile(times, 95).toFixed(2)),
      max: Number(times[times.length - 1].toFixed(2)),
    };
    results.push(r);
    console.log(JSON.stringify(r));
  };
  const get = (label: string, who: keyof typeof token | null, target: number | null, p: string) =>
    measure(label, who ?? 'none', target, async () => {
      const req = request(http).get(p);
      const res = await (who ? req.set(bearer(token[who])) : req);
      // health answers 503 'degraded' here (no worker runs beside this API): the same path either way
      if (res.status !== 200 && !(who === null && res.status === 503))
        throw new Error(`${p} as ${who}: ${res.status} ${JSON.stringify(res.body)}`);
    });

  // yardstick: the database's own floor through the app's pool, and the HTTP path without a query
  await measure('select 1 (app pool)', '—', null, async () => {
    await db.execute(sql`select 1`);
  });
  await measure('message_logs primary-key lookup (app pool)', '—', null, async () => {
    await db.execute(sql`select * from message_logs where id = ${1 + Math.floor(Math.random() * LOGS)}`);
  });
  await get('GET /api/health (no token, no query)', null, null, '/api/health');

  const who = [
    ['median', median.id],
    ['heavy', heavy.id],
    ['admin', 'all'],
  ] as const;
  const counters = [
    '/api/admin/messagelog/count/',
    '/api/admin/messagelog/today-count/',
    '/api/admin/messagelog/total-count/',
    '/api/admin/messagelog/today-income/',
    '/api/admin/withdraw/balance/',
    '/api/admin/withdraw/income/',
    '/api/admin/withdraw/total-requested/',
    '/api/admin/withdraw/total-accepted/',
    '/api/admin/bonus/total/',
  ];
  for (const route of counters) {
    for (const [w, id] of who) {
      await get(`${route}{${w === 'admin' ? 'all' : 'id'}}`, w, w === 'admin' ? 10 : 20, `${route}${id}`);
    }
  }

  const today = await one<{ d: string }>(sql`select ((now() at time zone ${TZ})::date)::text as d`);
  const from90 = new Date(Date.parse(`${today.d}T00:00:00Z`) - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  const range = `from=${from90}&to=${today.d}`;
  const reportPages = async (q: string) => {
    const res = await request(http).get(`/api/admin/report?${q}`).set(bearer(token.admin));
    return res.body.meta.totalPages as number;
  };
  await get('/api/admin/report (7 days), page 1', 'admin', 50, '/api/admin/report');
  await get('/api/admin/report 90 days, page 1', 'admin', 50, `/api/admin/report?${range}`);
  const last90 = await reportPages(range);
  await get(
    `/api/admin/report 90 days, last page (${last90})`,
    'admin',
    50,
    `/api/admin/report?${range}&page=${last90}`,
  );
  await get('/api/admin/report?user_id=heavy (7 days)', 'admin', 50, `/api/admin/report?user_id=${heavy.id}`);
  await get('/api/admin/report?user_id=heavy, 90 days', 'admin', 50, `/api/admin/report?user_id=${heavy.id}&${range}`);
  await get('/api/admin/report (own, 7 days)', 'median', 50, '/api/admin/report');
  await get(
    `/api/admin/report?whatsapp_id (heavy's account), 90 days`,
    'admin',
    50,
    `/api/admin/report?whatsapp_id=${heavyAcct.id}&${range}`,
  );
  await get('/api/admin/report/charts (everybody)', 'admin', 20, '/api/admin/report/charts');
  await get(
    '/api/admin/report/charts (heavy member, as admin)',
    'admin',
    20,
    `/api/admin/report/charts?user_id=${heavy.id}`,
  );
  await get('/api/admin/report/charts (own)', 'heavy', 20, '/api/admin/report/charts');
  await get('/api/admin/report/charts (own)', 'median', 20, '/api/admin/report/charts');

  const membersLast = Math.ceil(MEMBERS / 10);
  await get('/api/admin/users/members-per-page page 1', 'admin', 50, '/api/admin/users/members-per-page?page=1');
  await get(
    `/api/admin/users/members-per-page last page (${membersLast})`,
    'admin',
    50,
    `/api/admin/users/members-per-page?page=${membersLast}`,
  );

  const logs = '/api/admin/messagelog/list-per-page';
  const lastOf = async (q: string) => {
    const res = await request(http).get(`${logs}?${q}`).set(bearer(token.admin));
    return res.body.meta.totalPages as number;
  };
  await get(`${logs} page 1`, 'admin', 50, `${logs}?page=1`);
  await get(`${logs} page 100`, 'admin', 50, `${logs}?page=100`);
  await get(`${logs} user_id=heavy page 1`, 'admin', 50, `${logs}?page=1&user_id=${heavy.id}`);
  for (const status of ['sent', 'delivered', 'read', 'failed', 'unknown', 'pending']) {
    await get(`${logs} status=${status} page 1`, 'admin', 50, `${logs}?page=1&status=${status}`);
  }
  for (const status of ['failed', 'unknown']) {
    const last = await lastOf(`status=${status}`);
    await get(`${logs} status=${status} page 100`, 'admin', 50, `${logs}?page=100&status=${status}`);
    await get(`${logs} status=${status} last page (${last})`, 'admin', 50, `${logs}?page=${last}&status=${status}`);
  }
  await get(
    `${logs} user_id=heavy status=failed page 1`,
    'admin',
    50,
    `${logs}?page=1&user_id=${heavy.id}&status=failed`,
  );
  // a number's start: 12 digits (one number), 10 (100 numbers), 9 (1,000: 1% of the log, sent long ago), 5 (all)
  for (const search of ['628120000123', '6281200001', '628120000', '62812']) {
    await get(`${logs} search=${search} page 1`, 'admin', 50, `${logs}?page=1&search=${search}`);
  }
  await get(`${logs} whatsapp_id (median's account) page 1`, 'admin', 50, `${logs}?page=1&whatsapp_id=${acct.id}`);
  await get(`${logs} whatsapp_id (heavy's account) page 1`, 'admin', 50, `${logs}?page=1&whatsapp_id=${heavyAcct.id}`);
  await get(`${logs} (own) page 1`, 'median', 50, `${logs}?page=1`);
  const lastAcct = await lastOf(`whatsapp_id=${acct.id}`);
  await get(
    `${logs} whatsapp_id (median's account) last page (${lastAcct})`,
    'admin',
    50,
    `${logs}?page=${lastAcct}&whatsapp_id=${acct.id}`,
  );
  const lastHeavy = await lastOf(`user_id=${heavy.id}`);
  await get(
    `${logs} user_id=heavy last page (${lastHeavy})`,
    'admin',
    50,
    `${logs}?page=${lastHeavy}&user_id=${heavy.id}`,
  );
  const lastAll = await lastOf('page=1');
  await get(`${logs} last page (${lastAll})`, 'admin', 50, `${logs}?page=${lastAll}`);

  await new Promise<void>((resolve) => http.close(() => resolve()));
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });

  console.log(`\nload average ${load()}; fold ${JSON.stringify(fold)}\n`);
  console.log('| route | as | target ms | n | p50 ms | p95 ms | max ms | met |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of results) {
    const met = r.target === null ? 'yardstick' : r.p95 < r.target ? 'yes' : '**no**';
    console.log(`| ${r.route} | ${r.who} | ${r.target ?? '—'} | ${r.n} | ${r.p50} | ${r.p95} | ${r.max} | ${met} |`);
  }

  if (!KEEP) {
    const drop = new pg.Client({ connectionString: base });
    await drop.connect();
    await drop.query(`drop database ${dbName} with (force)`);
    await drop.end();
  } else console.log(`\nkept database ${dbName}`);
}

await main();
