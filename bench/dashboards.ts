// Benchmark (issue 23): BENCH_WATCHERS open dashboards on one API over the message logs bench/reads.ts
// loads, while a blast runs. Each simulated dashboard opens the realtime socket the browser opens
// (`/ws?id=&token=`), makes the calls its screen makes on open and refetches them after live events as
// the screen does (one refetch a group's delay after the first event that moves it). Mix: a few admins
// (the admin dashboard), a few staff (their dashboard is the withdrawal list: one call, no socket), and
// members of every size: the heavy member, each member whose account blasts (they get live events),
// members with accounts and members without. The blast's rate is measured without watchers, with them,
// and without them again (the machine drifts); CPU per process from /proc, the database's through the
// backends of its own database (pg_stat_activity) and PostgreSQL's server processes.
//   1. once: BENCH_DATABASE_URL=… BENCH_KEEP_DB=1 npx tsx bench/reads.ts   (loads and keeps wa_bench_reads)
//   2. BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 \
//        npx tsx bench/dashboards.ts
// The kept load is copied (CREATE DATABASE … TEMPLATE) so the blast never writes into reads.ts's data.
// BENCH_SOURCE_DB (wa_bench_reads), BENCH_DB_NAME (wa_bench_dashboards: the copy, dropped afterwards
// unless BENCH_KEEP_DB=1), BENCH_WATCHERS (500), BENCH_SECONDS (60 per measured window), BENCH_ACCOUNTS
// (50 blasting accounts, one per member), BENCH_RAMP_SECONDS (10: the dashboards open evenly over it),
// BENCH_ADMINS / BENCH_STAFF (1% of the watchers each, at least 1), BENCH_RATE (unset: the blast runs
// flat out at zero interval; N: paced to about N msg/s by a 1-"second" interval), BENCH_TARGETS,
// BENCH_ENGINE (worker: API and a `npm run worker` process over Redis; embedded: the engine inside the
// API process, no Redis), BENCH_COUNTERS (merged: the one counters call use-dashboard.ts makes; split:
// the five or six §7 counters it made before issue 23).
// Target (issue 23): every dashboard call p95 < 100 ms with the blast at >= 80% of its rate without
// watchers. Yardstick in the same run: GET /api/health every 200 ms, in every window.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  ALL_USERS,
  type ApiRoute,
  BONUS,
  DASHBOARD,
  FIRST_RUN,
  type LiveEvent,
  MESSAGE_LOG,
  PHONE_NUMBERS,
  PROXIES,
  pathOf,
  queryString,
  REPORT,
  SETTINGS,
  USERS,
  WHATSAPP,
  WITHDRAW,
} from '@wa/shared';
import pg from 'pg';
import { WebSocket } from 'ws';
import { type Db, openDatabase } from '../core/src/db/client';
import { foldLedger } from '../core/src/ledger/rollups';
import { signToken } from '../server/src/auth/tokens';
import { allowBlastingAnyTime } from '../tests/support/db';
import {
  CHART_EVENTS,
  CHARTS_REFRESH_MS,
  LIVE_REFRESH_MS,
  MOVING_EVENTS,
  STEP_EVENTS,
  STEP_REFRESH_MS,
} from '../web/src/features/dashboard/refetch-rules';
import { cpuBetween, cpuSnapshot, percentile, ROOT, startServer } from './support';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const WATCHERS = env('BENCH_WATCHERS', 500);
const SECONDS = env('BENCH_SECONDS', 60);
const ACCOUNTS = env('BENCH_ACCOUNTS', 50);
const RAMP_SECONDS = env('BENCH_RAMP_SECONDS', 10);
const ADMINS = env('BENCH_ADMINS', Math.max(1, Math.round(WATCHERS / 100)));
const STAFF = env('BENCH_STAFF', Math.max(1, Math.round(WATCHERS / 100)));
const RATE = process.env.BENCH_RATE ? Number(process.env.BENCH_RATE) : null;
const WARMUP_SECONDS = 5;
const SETTLE_SECONDS = 5;
// enough for every window at up to 3,000 msg/s flat out (a blast that runs dry ends, and says so below)
const TARGETS = env('BENCH_TARGETS', (RATE ?? 3000) * (WARMUP_SECONDS + 3 * SECONDS + RAMP_SECONDS + 30));
const ENGINE = process.env.BENCH_ENGINE === 'embedded' ? 'embedded' : 'worker';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SOURCE_DB = process.env.BENCH_SOURCE_DB ?? 'wa_bench_reads';
const DB_NAME = process.env.BENCH_DB_NAME ?? 'wa_bench_dashboards';
const KEEP = process.env.BENCH_KEEP_DB === '1';
const TZ = 'Asia/Jakarta';
const SECRET = randomBytes(24).toString('hex');
const TARGET_P95_MS = 100;
const SPLIT_COUNTERS = process.env.BENCH_COUNTERS === 'split';
const YARDSTICK = '/api/health (yardstick)';

// ---- the screens (keep in step with web/src/features/dashboard and the withdrawal list) ------------

type Kind = 'admin' | 'staff' | 'heavy' | 'blasting' | 'member';
interface Viewer {
  id: number;
  role: 'admin' | 'staff' | 'member';
  /** how the table groups it: the heavy member and the blasting members apart from the others */
  kind: Kind;
  token: string;
}
interface Call {
  /** the route's path with `all` for the admin scope, `{userId}` for a member's own */
  label: string;
  url: string;
}
/** Calls a screen makes together: on open, and again `delayMs` after the first of `events` (use-live-refresh.ts). */
interface CallGroup {
  calls: Call[];
  events: ReadonlySet<LiveEvent> | null;
  delayMs: number;
  /** the answer after which the screen stops refetching this group */
  until?: (answer: unknown) => boolean;
}
interface Screen {
  socket: boolean;
  groups: CallGroup[];
}

/** A GET of a route as web/src/api/client.ts `request` makes it. */
function get(route: Pick<ApiRoute, 'path'>, params: Record<string, string | number> = {}, query = {}): Call {
  const q = queryString(query);
  const label = route.path.replace(/\{(\w+)\}/g, (_, k: string) => (params[k] === ALL_USERS ? ALL_USERS : `{${k}}`));
  return { label: `/api${label}${q ? `?${q}` : ''}`, url: `/api${pathOf(route, params)}${q ? `?${q}` : ''}` };
}

/** The §7 counters the dashboards called one by one before issue 23 merged them (BENCH_COUNTERS=split). */
function splitCounters(role: Viewer['role'], scope: { userId: string | number }): Call[] {
  if (role === 'member') {
    return [WHATSAPP.count, MESSAGE_LOG.count, MESSAGE_LOG.todayIncome, WITHDRAW.balance, BONUS.total].map((r) =>
      get(r, scope),
    );
  }
  return [
    get(PROXIES.countUse),
    get(PHONE_NUMBERS.countBlast),
    get(WHATSAPP.count, scope),
    get(USERS.active),
    get(MESSAGE_LOG.todayCount, scope),
    get(MESSAGE_LOG.totalCount, scope),
  ];
}

/**
 * What each screen fetches: use-dashboard.ts `refresh` (one counters call, the member's own or
 * `all`), the member's info banner, use-charts, the admin's use-first-run, and for staff
 * /withdraw/requested.
 */
function screenOf(v: Viewer): Screen {
  const charts: CallGroup = { calls: [get(REPORT.charts)], events: CHART_EVENTS, delayMs: CHARTS_REFRESH_MS };
  if (v.role === 'staff') {
    // dashboard-page.tsx sends staff to the withdrawal list: useListPage, no live events, no socket
    return { socket: false, groups: [{ calls: [get(WITHDRAW.page, {}, { page: 1 })], events: null, delayMs: 0 }] };
  }
  const scope = { userId: v.role === 'member' ? v.id : ALL_USERS };
  const figures = SPLIT_COUNTERS ? splitCounters(v.role, scope) : [get(DASHBOARD.counters, scope)];
  if (v.role === 'member') {
    return {
      socket: true,
      groups: [
        { calls: figures, events: MOVING_EVENTS, delayMs: LIVE_REFRESH_MS },
        { calls: [get(SETTINGS.get)], events: null, delayMs: 0 },
        charts,
      ],
    };
  }
  const done = (a: unknown) => Boolean((a as { done?: boolean } | null)?.done);
  return {
    socket: true,
    groups: [
      { calls: figures, events: MOVING_EVENTS, delayMs: LIVE_REFRESH_MS },
      charts,
      { calls: [get(FIRST_RUN.get)], events: STEP_EVENTS, delayMs: STEP_REFRESH_MS, until: done },
    ],
  };
}

// ---- measuring ---------------------------------------------------------------------------------

type Phase = 'before' | 'ramp' | 'settle' | 'live' | 'after' | 'done';

/** Call times by phase, call and viewer kind; `phase` is the phase calls started now belong to. */
class Recorder {
  phase: Phase = 'before';
  readonly rows = new Map<string, { phase: string; call: string; as: string; times: number[]; errors: number }>();
  add(phase: string, call: string, as: string, ms: number | null): void {
    const key = `${phase}\t${call}\t${as}`;
    let r = this.rows.get(key);
    if (!r) {
      r = { phase, call, as, times: [], errors: 0 };
      this.rows.set(key, r);
    }
    if (ms === null) r.errors += 1;
    else r.times.push(ms);
  }
}

/** One GET with the viewer's token (or none); its time to the last byte, null when it failed (`accept`: statuses that answer). */
async function timedGet(
  base: string,
  url: string,
  token: string | null,
  accept: number[] = [],
): Promise<{ ms: number | null; body: string }> {
  const t = performance.now();
  try {
    const res = await fetch(`${base}${url}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    const body = await res.text();
    return { ms: res.ok || accept.includes(res.status) ? performance.now() - t : null, body };
  } catch {
    return { ms: null, body: '' };
  }
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** The hub's frames start `{"event":"name"` (hub-channels.ts): the name without parsing the payload. */
const eventOf = (data: Buffer) => /^\{"event":"([^"]+)"/.exec(data.toString('utf8', 0, 64))?.[1] ?? null;

/** Opens the realtime socket as the browser does (use-live-events.ts); resolves once it is open. */
function openSocket(base: string, v: Viewer, onFrame: (data: Buffer) => void): Promise<WebSocket> {
  // the page's own origin, as a browser sends it
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws?id=${v.id}&token=${encodeURIComponent(v.token)}`, {
    origin: base,
  });
  ws.on('message', (data: Buffer) => onFrame(data));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** One open dashboard: its socket, its calls on open, and its refetches after live events. */
class Dashboard {
  private ws: WebSocket | null = null;
  private readonly pending = new Map<CallGroup, NodeJS.Timeout>();
  private readonly finished = new Set<CallGroup>();
  private closed = false;
  events = 0;
  unexpectedClose: number | null = null;
  private readonly screen: Screen;

  constructor(
    readonly viewer: Viewer,
    private readonly base: string,
    private readonly rec: Recorder,
  ) {
    this.screen = screenOf(viewer);
  }

  async open(): Promise<void> {
    const socket = this.screen.socket
      ? openSocket(this.base, this.viewer, (d) => this.onFrame(d)).then((ws) => {
          this.ws = ws;
          ws.once('close', (code) => {
            if (!this.closed) this.unexpectedClose = code;
          });
        })
      : null;
    await Promise.all([...this.screen.groups.map((g) => this.run(g, true)), socket]);
  }

  /** use-live-refresh.ts: one refetch `delayMs` after the first moving event, however many follow meanwhile. */
  private onFrame(data: Buffer): void {
    const event = eventOf(data) as LiveEvent | null;
    if (!event || this.closed) return;
    this.events += 1;
    for (const g of this.screen.groups) {
      if (!g.events?.has(event) || this.pending.has(g) || this.finished.has(g)) continue;
      this.pending.set(
        g,
        setTimeout(() => {
          this.pending.delete(g);
          void this.run(g, false);
        }, g.delayMs),
      );
    }
  }

  private async run(g: CallGroup, first: boolean): Promise<void> {
    await Promise.all(
      g.calls.map(async (c) => {
        const phase = first ? 'open' : this.rec.phase;
        const { ms, body } = await timedGet(this.base, c.url, this.viewer.token);
        this.rec.add(phase, c.label, this.viewer.kind, ms);
        if (g.until && ms !== null && g.until(parsed(body))) this.finished.add(g);
      }),
    );
  }

  hasSocket(): boolean {
    return this.screen.socket;
  }

  close(): void {
    this.closed = true;
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
    this.ws?.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** Spreads `k` picks evenly over `list`. */
function spread<T>(list: T[], k: number): T[] {
  const n = Math.min(k, list.length);
  return n <= 0 ? [] : Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]);
}

async function waitFor<T>(check: () => Promise<T | null | false>, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await sleep(200);
  }
}

/** reads.ts's kept load copied to DB_NAME (a file copy): the blast writes messages, accounts and rollups into the copy only. */
async function copySource(base: string): Promise<void> {
  const server = new pg.Client({ connectionString: base });
  await server.connect();
  try {
    const found = await server.query('select 1 from pg_database where datname = $1', [SOURCE_DB]);
    if (found.rowCount !== 1) {
      throw new Error(
        `no database ${SOURCE_DB}: run bench/reads.ts with BENCH_KEEP_DB=1 first (or set BENCH_SOURCE_DB)`,
      );
    }
    await server.query(`drop database if exists ${DB_NAME} with (force)`);
    const t = performance.now();
    const version = Number((await server.query('show server_version_num')).rows[0].server_version_num);
    const strategy = version >= 150000 ? ' strategy file_copy' : '';
    await server.query(`create database ${DB_NAME} template ${SOURCE_DB}${strategy}`);
    console.log(JSON.stringify({ copied: SOURCE_DB, seconds: Number(((performance.now() - t) / 1000).toFixed(1)) }));
  } finally {
    await server.end();
  }
}

interface Member {
  id: number;
  accounts: number;
}
interface Cast {
  viewers: Viewer[];
  /** one blasting account each */
  blasters: Viewer[];
  /** message_logs ids above this are the blast's */
  baseId: number;
}

/**
 * Who watches and who blasts, and what the blast needs. The blasters: the heavy member (the most
 * accounts), members with accounts and members without, one new account each. The watchers: the
 * added admins and staff, every blaster, then members spread over the rest (every size).
 */
async function prepare(c: pg.Client, db: Db): Promise<Cast> {
  const { rows: members } = await c.query<Member>(
    `select u.id, count(w.id)::int as accounts from users u left join whatsapp_accounts w on w.user_id = u.id
     where u.role = 'member' group by u.id order by u.id`,
  );
  const heavy = members.reduce((a, b) => (b.accounts > a.accounts ? b : a));
  const owners = members.filter((m) => m.accounts > 0 && m !== heavy);
  const half = Math.ceil((ACCOUNTS - 1) / 2);
  const blasting = [
    heavy,
    ...spread(owners, half),
    ...spread(
      members.filter((m) => m.accounts === 0),
      ACCOUNTS - 1 - half,
    ),
  ];
  const blasterIds = new Set(blasting.map((m) => m.id));
  const { rows: staffAndAdmins } = await c.query<{ id: number; role: 'admin' | 'staff' }>(
    `insert into users (firstname, lastname, email, password_hash, role, referral_code, created_at, updated_at)
     select 'Dash', r || ' ' || g, 'dash-' || r || g || '@bench.test', 'x', r, 'DASH' || upper(r) || g, now(), now()
     from (select 'admin' as r, generate_series(1, $1::int) as g union all select 'staff', generate_series(1, $2::int)) x
     returning id, role`,
    [ADMINS, STAFF],
  );
  const slots = Math.max(0, WATCHERS - ADMINS - STAFF);
  const others = members.filter((m) => !blasterIds.has(m.id));
  const watched = [...blasting.slice(0, slots), ...spread(others, slots - blasting.length)];
  const viewer = (id: number, role: Viewer['role'], kind: Kind): Viewer => ({
    id,
    role,
    kind,
    token: signToken(SECRET, { id, role }),
  });
  const memberKind = (m: Member): Kind => (m === heavy ? 'heavy' : blasterIds.has(m.id) ? 'blasting' : 'member');
  const viewers = [
    ...staffAndAdmins.map((u) => viewer(u.id, u.role, u.role)),
    ...watched.map((m) => viewer(m.id, 'member', memberKind(m))),
  ];
  const count = (kind: Kind) => viewers.filter((v) => v.kind === kind).length;
  console.log(
    JSON.stringify({
      viewers: { admin: count('admin'), staff: count('staff'), heavy: count('heavy'), blasting: count('blasting') },
      otherMembers: {
        withAccounts: watched.filter((m) => m.accounts > 0 && !blasterIds.has(m.id)).length,
        withoutAccounts: watched.filter((m) => m.accounts === 0 && !blasterIds.has(m.id)).length,
      },
      heavy,
    }),
  );

  // targets of their own ('62899…'; reads.ts's numbers were all sent), the send window open, zero or a 1-"second" interval
  await c.query(`insert into phone_numbers (number, name)
    select '62899' || lpad(g::text, 8, '0'), 'Target ' || g from generate_series(1, ${TARGETS}) g`);
  await c.query('analyze phone_numbers');
  await allowBlastingAnyTime(db);
  await c.query(
    'update users set blast_fee = 100, blast_interval_min = $2, blast_interval_max = $2 where id = any($1)',
    [[...blasterIds], RATE ? 1 : 0],
  );
  const { rows } = await c.query<{ m: string }>('select coalesce(max(id), 0)::bigint as m from message_logs');
  return { viewers, blasters: blasting.map((m) => viewer(m.id, 'member', memberKind(m))), baseId: Number(rows[0].m) };
}

interface Stack {
  url: string;
  /** CPU group by pid: the API's, the worker's */
  pids: Map<number, string>;
  stop(): Promise<void>;
}

/**
 * The real API process (app/src/main.ts, as every bench starts it) and, unless BENCH_ENGINE=embedded,
 * a worker process (workers/src/main.ts) over Redis, both on the instant simulator.
 */
async function startStack(dbUrl: string): Promise<Stack> {
  const dirs = [
    mkdtempSync(path.join(tmpdir(), 'wa-bench-dash-api-')),
    mkdtempSync(path.join(tmpdir(), 'wa-bench-dash-')),
  ];
  const common: Record<string, string> = {
    DATABASE_URL: dbUrl,
    WA_DRIVER: 'sim',
    SIM_PAIR_DELAY_MS: '50',
    SIM_RESTORE_DELAY_MS: '10',
    SIM_SEND_LATENCY_MS: '0',
    SIM_SEND_FAIL_RATE: '0',
    WA_BLAST_SECOND_MS: String(RATE ? Math.max(1, Math.round((ACCOUNTS * 1000) / RATE)) : 1),
    APP_TIMEZONE: TZ,
    ...(ENGINE === 'worker'
      ? { REDIS_URL, REDIS_PREFIX: `wa-bench-dash-${randomBytes(3).toString('hex')}` }
      : { REDIS_URL: '' }),
  };
  const pids = new Map<number, string>();
  let worker: ChildProcess | null = null;
  let api: Awaited<ReturnType<typeof startServer>> | null = null;
  const stop = async () => {
    await api?.stop();
    const w = worker;
    if (w && w.exitCode === null) {
      w.kill('SIGTERM');
      await Promise.race([new Promise((r) => w.once('exit', r)), sleep(15_000)]);
      w.kill('SIGKILL');
    }
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  };
  try {
    // the worker first: the API's health (which startServer waits for) says degraded until a worker is live
    if (ENGINE === 'worker') {
      const w = spawn(process.execPath, ['--import', 'tsx', 'workers/src/main.ts'], {
        cwd: ROOT,
        // 'worker ready' is an info line
        env: { PATH: process.env.PATH ?? '', ...common, DATA_DIR: dirs[1], LOG_LEVEL: 'info' },
      });
      worker = w;
      pids.set(w.pid ?? -1, 'engine');
      // the last 64 KB kept for an error; its warnings and errors shown as the API's are (LOG_LEVEL warn)
      let out = '';
      let line = '';
      const keep = (d: Buffer) => {
        out = (out + d).slice(-65_536);
        const lines = (line + d).split('\n');
        line = lines.pop() ?? '';
        for (const l of lines) if (/^\{"level":[4-6]\d/.test(l)) process.stderr.write(`${l}\n`);
      };
      w.stdout?.on('data', keep);
      w.stderr?.on('data', keep);
      await waitFor(async () => out.includes('worker ready'), 60_000, 'worker ready').catch((err) => {
        throw new Error(`${err}\n${out}`);
      });
    }
    // no ADMIN_EMAIL: the load has its admin (startServer's sign-in then fails, and is not used)
    api = await startServer({ ...common, DATA_DIR: dirs[0], JWT_SECRET: SECRET, ADMIN_EMAIL: '', ADMIN_PASSWORD: '' });
  } catch (err) {
    await stop();
    throw err;
  }
  pids.set(api.child.pid ?? -1, ENGINE === 'worker' ? 'api' : 'api+engine');
  return { url: api.url, pids, stop };
}

/** A POST as the viewer; its JSON answer, or an error with the status. */
async function post(http: string, v: Viewer, route: Pick<ApiRoute, 'path'>, body: unknown): Promise<unknown> {
  const res = await fetch(`${http}/api${pathOf(route)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${v.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${route.path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

/**
 * One account per blaster, logged in as the create screen does (new-client, the code, the
 * 'authenticated' event on the member's socket, save), ten at a time; its device id per blaster.
 */
async function connectAccounts(http: string, c: pg.Client, blasters: Viewer[]): Promise<string[]> {
  const t = performance.now();
  const stamp = Date.now();
  const ids = blasters.map((_, i) => `id-${stamp}-${1000 + i}`);
  for (let i = 0; i < blasters.length; i += 10) {
    await Promise.all(
      blasters.slice(i, i + 10).map(async (v, j) => {
        const deviceId = ids[i + j];
        let authenticated: (info: Record<string, unknown>) => void = () => {};
        const info = new Promise<Record<string, unknown>>((r) => {
          authenticated = r;
        });
        const ws = await openSocket(http, v, (data) => {
          if (eventOf(data) !== 'authenticated') return;
          const { payload } = JSON.parse(String(data)) as {
            payload: { deviceId: string; clientInfo: Record<string, unknown> };
          };
          if (payload.deviceId === deviceId) authenticated(payload.clientInfo);
        });
        await post(http, v, WHATSAPP.newClient, { deviceId });
        const qr = await fetch(`${http}/api${pathOf(WHATSAPP.qr, { deviceId })}`, {
          headers: { authorization: `Bearer ${v.token}` },
        });
        await qr.text();
        await post(http, v, WHATSAPP.save, { clientid: deviceId, ...(await info) });
        ws.close();
      }),
    );
  }
  await waitFor(
    async () => {
      const { rows } = await c.query<{ n: number }>(
        `select count(*)::int as n from whatsapp_accounts
         where clientid = any($1) and state = 'connected' and worker_id is not null`,
        [ids],
      );
      return rows[0].n === ids.length;
    },
    60_000,
    'every blasting account connected and held by the engine',
  );
  console.log(JSON.stringify({ accountsConnected: ids.length, seconds: Math.round((performance.now() - t) / 1000) }));
  return ids;
}

interface Window {
  label: string;
  seconds: number;
  rate: number;
  /** % of one core by process group, and the machine's idle */
  cpu: Record<string, number>;
  load: string;
}

/**
 * Counts the blast's messages and every process's CPU over one window. PostgreSQL's processes count
 * as the database's when their backend is on DB_NAME, or is no backend (the postmaster, checkpointer,
 * WAL writer: our writes drive them); backends of other databases (other work on the machine) apart.
 */
function windows(c: pg.Client, stack: Stack, baseId: number) {
  const settled = async () => {
    const { rows } = await c.query<{ n: string }>('select count(*)::bigint as n from message_logs where id > $1', [
      baseId,
    ]);
    return Number(rows[0].n);
  };
  return async (label: string): Promise<Window> => {
    const n0 = await settled();
    const cpu0 = cpuSnapshot();
    const t0 = performance.now();
    await sleep(SECONDS * 1000);
    const cpu1 = cpuSnapshot();
    const secs = (performance.now() - t0) / 1000;
    const n1 = await settled();
    const { rows } = await c.query<{ pid: number; datname: string | null }>(
      'select pid, datname from pg_stat_activity',
    );
    const backendDb = new Map(rows.map((b) => [b.pid, b.datname]));
    const cpu = cpuBetween(cpu0, cpu1, secs, (pid, comm) => {
      const own = stack.pids.get(pid);
      if (own) return own;
      if (pid === process.pid) return 'bench (watchers)';
      if (comm === 'redis-server') return 'redis';
      if (comm !== 'postgres') return null;
      const db = backendDb.get(pid);
      return db === DB_NAME || !db ? 'database' : 'postgres (other databases)';
    });
    const w = { label, seconds: Number(secs.toFixed(1)), rate: Math.round((n1 - n0) / secs), cpu, load: load() };
    console.log(JSON.stringify(w));
    return w;
  };
}

/** The blast alone, with every dashboard open (opened over the ramp, measured after a settle), and alone again. */
async function run(http: string, c: pg.Client, stack: Stack, cast: Cast, deviceIds: string[]) {
  const rec = new Recorder();
  const measure = windows(c, stack, cast.baseId);
  // the API's health floor, called the way the dashboards call, in every window (503 is its answer while degraded)
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const phase = rec.phase;
      const { ms } = await timedGet(http, '/api/health', null, [503]);
      rec.add(phase, YARDSTICK, '—', ms);
      await sleep(200);
    }
  })();

  for (const [i, v] of cast.blasters.entries()) {
    await post(http, v, WHATSAPP.startBlasting, { whatsappClientId: deviceIds[i] });
  }
  await sleep(WARMUP_SECONDS * 1000);
  const before = await measure('blast, no dashboards');

  // every dashboard, the kinds interleaved, opened evenly over the ramp
  rec.phase = 'ramp';
  const n = cast.viewers.length;
  const dashboards = cast.viewers
    .map((v, i) => ({ v, at: (i * 7919) % n }))
    .sort((a, b) => a.at - b.at)
    .map(({ v }) => new Dashboard(v, http, rec));
  const t0 = performance.now();
  await Promise.all(
    dashboards.map(async (d, i) => {
      await sleep((i * RAMP_SECONDS * 1000) / n);
      await d.open();
    }),
  );
  const rampSeconds = Number(((performance.now() - t0) / 1000).toFixed(1));
  rec.phase = 'settle';
  await sleep(SETTLE_SECONDS * 1000);
  // the bench's own event loop: a late loop would add to every time measured here
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  rec.phase = 'live';
  const during = await measure(`blast + ${n} dashboards`);
  loop.disable();
  rec.phase = 'done';
  const events = (kind: Kind) => dashboards.filter((d) => d.viewer.kind === kind).reduce((s, d) => s + d.events, 0);
  const sockets = {
    held: dashboards.filter((d) => d.hasSocket()).length,
    closedByTheServer: dashboards.filter((d) => d.unexpectedClose !== null).length,
    eventsSinceOpen: {
      admin: events('admin'),
      heavy: events('heavy'),
      blasting: events('blasting'),
      member: events('member'),
    },
    rampSeconds,
    benchLoopDelayMs: { p99: Number((loop.percentile(99) / 1e6).toFixed(1)), max: Number((loop.max / 1e6).toFixed(1)) },
  };
  console.log(JSON.stringify({ sockets }));
  for (const d of dashboards) d.close();
  await sleep(2000);
  rec.phase = 'after';
  const after = await measure('blast, no dashboards (again)');
  rec.phase = 'done';
  probing = false;
  await probe;
  for (const [i, v] of cast.blasters.entries()) {
    await post(http, v, WHATSAPP.stopBlasting, { whatsappClientId: deviceIds[i] }).catch(() => {});
  }
  const { rows } = await c.query<{ n: number }>(
    `select count(*)::int as n from phone_numbers
     where campaign_id is null and status = 'active' and last_sent is null and in_use = 0`,
  );
  return { rec, windows: [before, during, after], targetsLeft: rows[0].n };
}

/** The windows' rates and CPU, then every call's times, as markdown tables. */
function report(rec: Recorder, [before, during, after]: Window[], targetsLeft: number): void {
  if (targetsLeft === 0) console.log('\n**the blast ran out of targets: raise BENCH_TARGETS, its rates are too low**');
  const without = (before.rate + after.rate) / 2;
  const ratio = without ? during.rate / without : 0;
  const engine = ENGINE === 'worker' ? 'API and worker processes over Redis' : 'the engine inside the API process';
  console.log(`\nload average ${load()}; ${engine}; blast ${RATE ? `paced to ${RATE} msg/s` : 'flat out'}`);
  const all = [before, during, after];
  const known = [
    'database',
    'api',
    'api+engine',
    'engine',
    'redis',
    'bench (watchers)',
    'postgres (other databases)',
    'other',
  ];
  const keys = known.filter((k) => all.some((w) => k in w.cpu));
  console.log(`\n| window | seconds | msg/s | ${keys.map((k) => `CPU ${k}`).join(' | ')} | idle | load average |`);
  console.log(`| --- | --- | --- | ${keys.map(() => '---').join(' | ')} | --- | --- |`);
  for (const w of all) {
    const cpu = keys.map((k) => w.cpu[k] ?? 0).join(' | ');
    console.log(`| ${w.label} | ${w.seconds} | ${w.rate} | ${cpu} | ${w.cpu.idle} | ${w.load} |`);
  }
  const met = ratio >= 0.8 ? 'yes' : '**no**';
  console.log(
    `\nCPU in % of one core. The blast with the dashboards: ${during.rate} msg/s, ${(ratio * 100).toFixed(0)}% of ` +
      `${Math.round(without)} without them (the mean of the two windows; target >= 80%: ${met}).`,
  );

  const phases: Record<string, number> = { before: 0, open: 1, live: 2, after: 3 };
  const kinds: Kind[] = ['admin', 'staff', 'heavy', 'blasting', 'member'];
  // within a viewer kind, the calls in the order its screen makes them
  const rank = (as: string, call: string) => {
    const kind = kinds.indexOf(as as Kind);
    if (kind < 0) return 1e6;
    const role = as === 'admin' || as === 'staff' ? as : 'member';
    const calls = screenOf({ id: 0, role, kind: as as Kind, token: '' }).groups.flatMap((g) => g.calls);
    return kind * 100 + calls.findIndex((c) => c.label === call);
  };
  const rows = [...rec.rows.values()]
    .filter((r) => r.phase in phases)
    .map((r) => ({ ...r, times: r.times.sort((a, b) => a - b) }))
    .sort((a, b) => phases[a.phase] - phases[b.phase] || rank(a.as, a.call) - rank(b.as, b.call));
  const p95 = (t: number[]) => (t.length ? percentile(t, 95) : Number.POSITIVE_INFINITY);
  const live = rows.filter((r) => r.phase === 'live' && r.as !== '—');
  const calls = live.reduce((n, r) => n + r.times.length + r.errors, 0);
  const worst = live.reduce<(typeof live)[number] | null>((w, r) => (!w || p95(r.times) > p95(w.times) ? r : w), null);
  const allMet = live.length > 0 && live.every((r) => p95(r.times) < TARGET_P95_MS && !r.errors);
  console.log(
    `With the dashboards open: ${calls} dashboard calls (${(calls / during.seconds).toFixed(1)}/s), the slowest p95 ` +
      `${worst ? `${p95(worst.times).toFixed(1)} ms (${worst.call} as ${worst.as})` : '—'}; every call p95 < ` +
      `${TARGET_P95_MS} ms: ${allMet ? 'yes' : '**no**'}. Counters: ${SPLIT_COUNTERS ? 'the split §7 routes' : 'one merged call'}.\n`,
  );
  console.log(`| phase | call | as | n | errors | p50 ms | p95 ms | max ms | p95 < ${TARGET_P95_MS} ms |`);
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    const t = r.times;
    const at = (p: number) => (t.length ? percentile(t, p).toFixed(1) : '—');
    const max = t.length ? t[t.length - 1].toFixed(1) : '—';
    const ok = r.as === '—' ? 'yardstick' : p95(t) < TARGET_P95_MS && !r.errors ? 'yes' : '**no**';
    console.log(
      `| ${r.phase} | ${r.call} | ${r.as} | ${t.length} | ${r.errors} | ${at(50)} | ${at(95)} | ${max} | ${ok} |`,
    );
  }
}

async function main() {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base)
    throw new Error('set BENCH_DATABASE_URL (the PostgreSQL server that holds the kept load of bench/reads.ts)');
  console.log(
    JSON.stringify({ source: SOURCE_DB, copy: DB_NAME, watchers: WATCHERS, accounts: ACCOUNTS, seconds: SECONDS }),
  );
  console.log(JSON.stringify({ engine: ENGINE, rate: RATE ?? 'flat out', targets: TARGETS, loadAverage: load() }));
  await copySource(base);
  const u = new URL(base);
  u.pathname = `/${DB_NAME}`;
  const dbUrl = u.toString();
  const database = await openDatabase({ databaseUrl: dbUrl, pgliteDir: '' });
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  let stack: Stack | null = null;
  try {
    const meta = await c.query<{ logs: number }>('select logs from bench_reads_meta').catch(() => null);
    if (!meta?.rows[0]) throw new Error(`${SOURCE_DB} holds no finished load of bench/reads.ts (no bench_reads_meta)`);
    // the fold an engine makes when it starts, done here so that it lands in no window
    const t = performance.now();
    await foldLedger(database.db, TZ);
    console.log(JSON.stringify({ logs: Number(meta.rows[0].logs), foldMs: Math.round(performance.now() - t) }));
    const cast = await prepare(c, database.db);
    await database.close();
    stack = await startStack(dbUrl);
    const deviceIds = await connectAccounts(stack.url, c, cast.blasters);
    const result = await run(stack.url, c, stack, cast, deviceIds);
    report(result.rec, result.windows, result.targetsLeft);
  } finally {
    await stack?.stop().catch(() => {});
    await c.end().catch(() => {});
    await database.close().catch(() => {});
    const s = new pg.Client({ connectionString: base });
    await s.connect();
    if (KEEP) console.log(`\nkept database ${DB_NAME}`);
    else await s.query(`drop database if exists ${DB_NAME} with (force)`);
    await s.end();
  }
}

await main();
process.exit(0);
