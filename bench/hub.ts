// Benchmark: the realtime hub fanning live events out to 1,000 sockets at 10,000 events/s in total
// (most on the users' own client-{id} channels, a share on client-admin), once on the in-process
// bus and once over Redis. This process runs the hub and the publisher; a child process holds the
// client sockets, so parsing on the client side does not slow the server. Latency is publish call
// → message parsed by the client, from a timestamp in the payload (performance.timeOrigin +
// performance.now() on both sides).
//   npx tsx bench/hub.ts                            # memory, then redis
//   BENCH_BUS=memory npx tsx bench/hub.ts           # one bus only (memory | redis | both)
//   BENCH_REDIS_URL=redis://127.0.0.1:6379 BENCH_SOCKETS=1000 BENCH_RATE=10000 BENCH_SECONDS=10 npx tsx bench/hub.ts
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ADMIN_CHANNEL, type LiveEvent, type Role, userChannel } from '@wa/shared';
import { WebSocket } from 'ws';
import { type EventBus, InProcessBus, RedisBus } from '../core/src/realtime/bus';
import { liveBusChannel } from '../core/src/realtime/publish';
import { signToken } from '../server/src/auth/tokens';
import { attachHub } from '../server/src/realtime/hub';
import { percentile, ROOT } from './support';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
/** ids 1..ADMINS are admins (they also get client-admin); the rest members */
const ADMINS = Number(process.env.BENCH_ADMINS ?? 10);
const RATE = Number(process.env.BENCH_RATE ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP ?? 3);
/** share of the events published on client-admin */
const ADMIN_SHARE = Number(process.env.BENCH_ADMIN_SHARE ?? 0.05);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECRET = 'bench-secret';

const now = () => performance.timeOrigin + performance.now();

// ---- the client process ----------------------------------------------------------------------

type ToClients = { type: 'connect'; url: string; users: { id: number; token: string }[] } | { type: 'report' };
interface ClientReport {
  type: 'report';
  received: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  cpuMs: number;
}
type FromClients = { type: 'connected'; open: number; failed: number } | ClientReport;

function clients() {
  const send = (m: FromClients) => process.send?.(m);
  const sockets: WebSocket[] = [];
  let latencies = new Float64Array(1 << 20);
  let count = 0;
  let cpu = process.cpuUsage();

  const onMessage = (data: WebSocket.RawData) => {
    const t = now();
    const msg = JSON.parse(String(data)) as { payload: { t: number; m: number } };
    if (msg.payload.m !== 1) return;
    if (count === latencies.length) {
      const bigger = new Float64Array(latencies.length * 2);
      bigger.set(latencies);
      latencies = bigger;
    }
    latencies[count++] = t - msg.payload.t;
  };

  const open = (url: string) =>
    new Promise<boolean>((resolve) => {
      const ws = new WebSocket(url, { perMessageDeflate: false });
      ws.on('message', onMessage);
      ws.once('open', () => {
        sockets.push(ws);
        resolve(true);
      });
      ws.once('error', () => resolve(false));
    });

  process.on('message', async (m: ToClients) => {
    if (m.type === 'connect') {
      let ok = 0;
      for (let i = 0; i < m.users.length; i += 100) {
        const batch = m.users.slice(i, i + 100);
        const results = await Promise.all(batch.map((u) => open(`${m.url}?id=${u.id}&token=${u.token}`)));
        ok += results.filter(Boolean).length;
      }
      count = 0;
      cpu = process.cpuUsage();
      send({ type: 'connected', open: ok, failed: m.users.length - ok });
    } else if (m.type === 'report') {
      const sorted = Array.from(latencies.subarray(0, count)).sort((a, b) => a - b);
      const used = process.cpuUsage(cpu);
      const r = (x: number | undefined) => Number((x ?? Number.NaN).toFixed(2));
      send({
        type: 'report',
        received: count,
        p50: r(percentile(sorted, 50)),
        p95: r(percentile(sorted, 95)),
        p99: r(percentile(sorted, 99)),
        max: r(sorted[sorted.length - 1]),
        cpuMs: Math.round((used.user + used.system) / 1000),
      });
      for (const ws of sockets.splice(0)) ws.terminate();
      count = 0;
    }
  });
}

// ---- the hub process -------------------------------------------------------------------------

function ask<T extends FromClients['type']>(child: ChildProcess, m: ToClients, reply: T) {
  return new Promise<Extract<FromClients, { type: T }>>((resolve) => {
    const on = (r: FromClients) => {
      if (r.type !== reply) return;
      child.off('message', on);
      resolve(r as Extract<FromClients, { type: T }>);
    };
    child.on('message', on);
    child.send(m);
  });
}

/** A round trip through the bus, so the Redis subscriber is ready before sockets join. */
async function busReady(bus: EventBus) {
  const probe = `probe-${randomBytes(4).toString('hex')}`;
  let got = false;
  const off = await bus.subscribe(probe, () => {
    got = true;
  });
  for (let i = 0; !got; i++) {
    if (i > 500) throw new Error('the bus never delivered');
    await bus.publish(probe, 1);
    await new Promise((r) => setTimeout(r, 20));
  }
  await off();
}

const EVENTS: LiveEvent[] = ['count_success', 'count_fail', 'sending', 'progressing', 'waiting'];

async function run(kind: 'memory' | 'redis') {
  let hubBus: EventBus;
  let pubBus: EventBus;
  if (kind === 'memory') {
    hubBus = pubBus = new InProcessBus();
  } else {
    const prefix = `bench-${randomBytes(4).toString('hex')}:`;
    hubBus = new RedisBus(REDIS_URL, prefix); // the API replica's bus
    pubBus = new RedisBus(REDIS_URL, prefix); // a worker's bus
    await busReady(hubBus);
    await busReady(pubBus);
  }
  const roles = new Map<number, Role>();
  for (let id = 1; id <= SOCKETS; id++) roles.set(id, id <= ADMINS ? 'admin' : 'member');
  const server: Server = createServer();
  const hub = attachHub(server, {
    bus: hubBus,
    jwtSecret: SECRET,
    authState: async (id) => {
      const role = roles.get(id);
      return role ? { role, tokenVersion: 0 } : null;
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;

  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--clients'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const users = [...roles].map(([id, role]) => ({ id, token: signToken(SECRET, { id, role }) }));
  const connectStarted = performance.now();
  const connected = await ask(child, { type: 'connect', url, users }, 'connected');
  const connectMs = performance.now() - connectStarted;
  if (connected.failed > 0 || hub.stats().sockets !== SOCKETS) {
    throw new Error(`only ${connected.open} of ${SOCKETS} sockets opened (hub sees ${hub.stats().sockets})`);
  }

  // publishes at RATE for `seconds`; `measured` marks the events the client times
  let expected = 0;
  let published = 0;
  let errors = 0;
  const publishFor = async (seconds: number, measured: boolean) => {
    const start = performance.now();
    const total = Math.round(seconds * RATE);
    let sent = 0;
    while (sent < total) {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * RATE));
      for (; sent < due; sent++) {
        const admin = Math.random() < ADMIN_SHARE;
        const channel = admin ? ADMIN_CHANNEL : userChannel(1 + Math.floor(Math.random() * SOCKETS));
        const payload = {
          deviceId: sent % 97,
          count: sent,
          t: now(),
          m: measured ? 1 : 0,
        };
        // the hub's transport, not the contract, is measured: the payload carries the timing fields
        pubBus.publish(liveBusChannel(channel), { event: EVENTS[sent % EVENTS.length], payload }).catch(() => {
          errors += 1;
        });
        if (measured) {
          published += 1;
          expected += admin ? ADMINS : 1;
        }
      }
      await new Promise((r) => setTimeout(r, 1));
    }
  };

  await publishFor(WARMUP_SECONDS, false);
  await new Promise((r) => setTimeout(r, 500));
  const loadBefore = loadavg()[0];
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await publishFor(SECONDS, true);
  const publishSeconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  loop.disable();
  await new Promise((r) => setTimeout(r, 2000)); // drain
  const report = await ask(child, { type: 'report' }, 'report');

  const result = {
    bus: kind,
    sockets: SOCKETS,
    eventsPerSecond: Math.round(published / publishSeconds),
    seconds: SECONDS,
    published,
    expected,
    delivered: report.received,
    deliveredPct: Number(((100 * report.received) / expected).toFixed(3)),
    p50ms: report.p50,
    p95ms: report.p95,
    p99ms: report.p99,
    maxMs: report.max,
    publishErrors: errors,
    connectMs: Math.round(connectMs),
    hubCpuPct: Math.round((100 * (used.user + used.system)) / 1000 / (publishSeconds * 1000)),
    clientCpuPct: Math.round((100 * report.cpuMs) / ((publishSeconds + 2.5) * 1000)),
    hubLoopDelayP99Ms: Number((loop.percentile(99) / 1e6).toFixed(2)),
    // other work on the machine distorts the tail: 2 cores, and this bench alone keeps ~1 busy
    loadAvg1m: Number(Math.max(loadBefore, loadavg()[0]).toFixed(2)),
  };
  console.log(JSON.stringify(result));

  await new Promise<void>((r) => {
    child.once('exit', () => r());
    child.kill('SIGTERM');
  });
  await hub.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await hubBus.close();
  if (pubBus !== hubBus) await pubBus.close();
  return result;
}

async function main() {
  const which = process.env.BENCH_BUS ?? 'both';
  const kinds = which === 'both' ? (['memory', 'redis'] as const) : [which as 'memory' | 'redis'];
  const results = [];
  for (const kind of kinds) results.push(await run(kind));
  console.log(
    `\n${SOCKETS} sockets, ${RATE} events/s (${Math.round(ADMIN_SHARE * 100)}% on client-admin to ${ADMINS} admins), ${SECONDS} s after ${WARMUP_SECONDS} s warm-up`,
  );
  console.table(
    results.map((r) => ({
      bus: r.bus,
      'events/s': r.eventsPerSecond,
      expected: r.expected,
      delivered: r.delivered,
      'delivered %': r.deliveredPct,
      'p50 ms': r.p50ms,
      'p95 ms': r.p95ms,
      'p99 ms': r.p99ms,
      'max ms': r.maxMs,
      'hub CPU %': r.hubCpuPct,
      'client CPU %': r.clientCpuPct,
      'load avg': r.loadAvg1m,
    })),
  );
}

if (process.argv.includes('--clients')) clients();
else await main();
