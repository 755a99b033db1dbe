// Benchmark (issue 12): the memory one browserless (Baileys) session costs in one Node process.
//
//   npx tsx bench/baileys-memory.ts
//   BENCH_SESSIONS=100,500,1000   how many sessions, one fresh child process per count
//   BENCH_SETTLE_MS=5000          wait after every socket is open, before sampling
//   BENCH_CONNECT_TIMEOUT_MS=600000  Baileys' connectTimeoutMs (see below); "driver" keeps the
//                                 driver's own socket factory and Baileys' default (20 s)
//
// What runs: the real BaileysDriver and the real makeWASocket, one per session, each restoring a
// stored auth state (credentials with a fake `account` and `me`, so the driver treats it as a
// logged-in account, plus a few dozen pre-keys) from a MemorySessionStore / MemoryAuthKeyStore.
// Every socket connects (`waWebSocketUrl`) to a stand-in WebSocket server on 127.0.0.1 in this
// parent process, which accepts the connection, reads and ignores the client's Noise hello and
// never answers: the handshake never completes, so no session reaches 'connected'. Baileys waits
// `connectTimeoutMs` for the server's hello and then closes (the driver would reconnect); the
// driver does not let one pass that option, so the bench uses the driver's `socketFactory` option
// to call makeWASocket with the driver's own config plus a longer connectTimeoutMs, which keeps
// every socket open and waiting through the sample.
//
// What is measured, in the child (run with --expose-gc): after importing the driver and seeding the
// stores (they stand in for PostgreSQL, so they belong to the baseline), GC and a baseline of RSS, PSS,
// heapUsed, external and arrayBuffers; then N sessions are started, the parent waits until its
// server holds N open sockets, waits BENCH_SETTLE_MS, and the child GCs and samples again. The
// per-session cost is (sample − baseline) / N; sessions per GB are 1024 MB / that RSS delta, and
// for the whole process 1024 MB / (RSS at N / N).
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AuthenticationCreds } from '@whiskeysockets/baileys';
import makeWASocket, { BufferJSON, Curve, initAuthCreds } from '@whiskeysockets/baileys';
import pino from 'pino';
import { WebSocketServer } from 'ws';
import type { SocketLike } from '../workers/src/drivers/baileys';
import { MemoryAuthKeyStore } from '../workers/src/drivers/baileys-auth';
import { MemorySessionStore } from '../workers/src/drivers/session-store';

const PRE_KEYS = 30;

/** MB (per session: KB); pss is the process's proportional set size, as bench/wwebjs-memory.ts sums for Chromium */
interface Mem {
  rss: number;
  pss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}
const MEM_KEYS = ['rss', 'pss', 'heapUsed', 'external', 'arrayBuffers'] as const;

type ToParent =
  | { kind: 'baseline'; mem: Mem }
  | { kind: 'started'; ms: number; failed: number }
  | { kind: 'sample'; mem: Mem; states: Record<string, number>; loggedErrors: number }
  | { kind: 'closed' };
type ToChild = { kind: 'sample' } | { kind: 'close' };

const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

// ---------------- the child: N sessions in one process ----------------

function memory(): Mem {
  const m = process.memoryUsage();
  const pssKb = Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync('/proc/self/smaps_rollup', 'utf8'))?.[1] ?? Number.NaN);
  const { rss, heapUsed, external, arrayBuffers } = m;
  return {
    rss: rss / MB,
    pss: pssKb / 1024,
    heapUsed: heapUsed / MB,
    external: external / MB,
    arrayBuffers: arrayBuffers / MB,
  };
}

async function collect(): Promise<Mem> {
  const gc = globalThis.gc;
  if (!gc) throw new Error('run the child with --expose-gc');
  gc();
  await sleep(300);
  gc();
  return memory();
}

/** A logged-in account's credentials as the driver stores them (BufferJSON), with its pre-keys. */
async function seed(clientId: string, i: number, store: MemorySessionStore, keys: MemoryAuthKeyStore) {
  const creds: AuthenticationCreds = initAuthCreds();
  const number = `62811${String(i).padStart(8, '0')}`;
  creds.me = { id: `${number}:1@s.whatsapp.net`, name: `Bench ${i}` };
  creds.account = {
    details: Buffer.alloc(64, i % 256),
    accountSignatureKey: Buffer.alloc(32, 1),
    accountSignature: Buffer.alloc(64, 2),
    deviceSignature: Buffer.alloc(64, 3),
  };
  creds.registered = true;
  creds.nextPreKeyId = PRE_KEYS + 1;
  creds.firstUnuploadedPreKeyId = PRE_KEYS + 1;
  await store.save(clientId, Buffer.from(JSON.stringify(creds, BufferJSON.replacer), 'utf8'));
  const changes = Array.from({ length: PRE_KEYS }, (_, k) => ({
    type: 'pre-key',
    id: String(k + 1),
    value: JSON.stringify(Curve.generateKeyPair(), BufferJSON.replacer),
  }));
  await keys.write(clientId, changes);
}

async function child(n: number, url: string): Promise<void> {
  const send = (m: ToParent) => process.send?.(m);
  const next = () => new Promise<ToChild>((resolve) => process.once('message', (m) => resolve(m as ToChild)));
  const { BaileysDriver } = await import('../workers/src/drivers/baileys');
  const store = new MemorySessionStore();
  const keys = new MemoryAuthKeyStore();
  const ids = Array.from({ length: n }, (_, i) => `id-1760000000000-bench${i + 1}`);
  for (const [i, id] of ids.entries()) await seed(id, i + 1, store, keys);

  // Baileys logs at 'error' through a child of this; counted, not printed
  let loggedErrors = 0;
  const logger = pino({ level: 'error' }, { write: () => void loggedErrors++ });
  const timeout = process.env.BENCH_CONNECT_TIMEOUT_MS ?? '600000';
  const connectTimeoutMs = Number(timeout);
  const driver = new BaileysDriver({
    store,
    keys,
    logger,
    waWebSocketUrl: url,
    ...(timeout === 'driver' ? {} : { socketFactory: (c) => makeWASocket({ ...c, connectTimeoutMs }) as SocketLike }),
  });
  send({ kind: 'baseline', mem: await collect() });

  const t0 = Date.now();
  const sessions = ids.map((clientId) => driver.createSession({ clientId, engine: 'baileys' }));
  let failed = 0;
  for (let i = 0; i < sessions.length; i += 100) {
    const batch = sessions.slice(i, i + 100).map((s) => s.start().catch(() => void failed++));
    await Promise.all(batch);
    await sleep(20);
  }
  send({ kind: 'started', ms: Date.now() - t0, failed });

  await next();
  const mem = await collect();
  const states: Record<string, number> = {};
  for (const s of sessions) {
    const state = await s.getState();
    states[state] = (states[state] ?? 0) + 1;
  }
  send({ kind: 'sample', mem, states, loggedErrors });

  await next();
  await driver.close();
  // Baileys' handshake timer (connectTimeoutMs) outlives an ended socket and holds the loop open
  process.send?.({ kind: 'closed' } satisfies ToParent, () => process.exit(0));
}

// ---------------- the parent: the stand-in server, one child per N ----------------

type Result = Awaited<ReturnType<typeof measure>>;

async function measure(n: number, server: StandIn, settleMs: number) {
  server.reset();
  const proc: ChildProcess = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, BENCH_CHILD_SESSIONS: String(n), BENCH_WS_URL: server.url },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const inbox: ToParent[] = [];
  let waiter: (() => void) | null = null;
  proc.on('message', (m) => {
    inbox.push(m as ToParent);
    waiter?.();
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  async function receive<K extends ToParent['kind']>(kind: K): Promise<Extract<ToParent, { kind: K }>> {
    for (;;) {
      const m = inbox.shift();
      if (m) {
        if (m.kind !== kind) throw new Error(`expected ${kind}, got ${m.kind}`);
        return m as Extract<ToParent, { kind: K }>;
      }
      const gotOne = new Promise<void>((r) => {
        waiter = r;
      });
      const code = await Promise.race([gotOne, exited.then((c) => c ?? -1)]);
      if (typeof code === 'number') throw new Error(`child for ${n} sessions exited (${code}) before '${kind}'`);
    }
  }
  try {
    const { mem: baseline } = await receive('baseline');
    const started = await receive('started');
    const until = Date.now() + 120_000;
    while (server.open < n && Date.now() < until) await sleep(100);
    if (server.open < n) console.log(`  only ${server.open} of ${n} sockets open after 120 s; sampling anyway`);
    const closedBefore = server.closed;
    await sleep(settleMs);
    const openAtSample = server.open;
    proc.send({ kind: 'sample' } satisfies ToChild);
    const sample = await receive('sample');
    const closedBeforeSample = server.closed - closedBefore;
    const framesReceived = server.frames;
    proc.send({ kind: 'close' } satisfies ToChild);
    await receive('closed');
    await exited;
    const until2 = Date.now() + 10_000;
    while (server.open > 0 && Date.now() < until2) await sleep(100);
    if (server.open > 0) console.log(`  warning: ${server.open} sockets still open after destroy`);

    const perSessionKb = mapMem((k) => ((sample.mem[k] - baseline[k]) * 1024) / n);
    const processMbPerSession = sample.mem.rss / n;
    if (sample.loggedErrors) console.log(`  Baileys logged ${sample.loggedErrors} errors before the sample`);
    return {
      sessions: n,
      startMs: started.ms,
      openAtSample,
      closedBeforeSample,
      framesReceived,
      states: sample.states,
      baseline: mapMem((k) => baseline[k]),
      atN: mapMem((k) => sample.mem[k]),
      perSessionKb,
      sessionsPerGb: Math.floor((1024 * 1024) / perSessionKb.rss),
      processMbPerSession: round(processMbPerSession, 2),
      processSessionsPerGb: Math.floor(1024 / processMbPerSession),
    };
  } finally {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill();
  }
}

function mapMem(f: (k: keyof Mem) => number): Mem {
  return Object.fromEntries(MEM_KEYS.map((k) => [k, round(f(k))])) as unknown as Mem;
}

type StandIn = Awaited<ReturnType<typeof standIn>>;

/** Accepts WebSockets on loopback and keeps them open; reads and ignores what the client sends. */
async function standIn() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, backlog: 2048 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const address = wss.address();
  if (!address || typeof address === 'string') throw new Error('unexpected server address');
  const server = {
    url: `ws://127.0.0.1:${address.port}/ws/chat`,
    open: 0,
    closed: 0,
    frames: 0,
    reset: () => Object.assign(server, { closed: 0, frames: 0 }),
    stop: () => new Promise<void>((resolve) => wss.close(() => resolve())),
  };
  wss.on('connection', (ws) => {
    server.open++;
    ws.on('message', () => void server.frames++);
    ws.on('error', () => {});
    ws.on('close', () => {
      server.open--;
      server.closed++;
    });
  });
  return server;
}

async function parent(): Promise<void> {
  const counts = (process.env.BENCH_SESSIONS ?? '100,500,1000').split(',').map((s) => Number(s.trim()));
  const settleMs = Number(process.env.BENCH_SETTLE_MS ?? 5000);
  const server = await standIn();
  console.log(
    `Baileys sessions per process: ${counts.join(', ')}; stand-in server ${server.url}; settle ${settleMs} ms; ` +
      `connectTimeoutMs ${process.env.BENCH_CONNECT_TIMEOUT_MS ?? '600000'}`,
  );
  const results: Result[] = [];
  try {
    for (const n of counts) {
      const r = await measure(n, server, settleMs);
      results.push(r);
      console.log(JSON.stringify(r));
    }
  } finally {
    await server.stop();
  }
  console.log(
    '\n| sessions | open | RSS base → at N MB | per session KB: RSS / PSS / heapUsed / external | per GB | process MB/session | per GB |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of results) {
    const p = r.perSessionKb;
    console.log(
      `| ${r.sessions} | ${r.openAtSample} | ${r.baseline.rss} → ${r.atN.rss} | ${p.rss} / ${p.pss} / ${p.heapUsed} / ${p.external} | ${r.sessionsPerGb} | ${r.processMbPerSession} | ${r.processSessionsPerGb} |`,
    );
  }
}

const childSessions = process.env.BENCH_CHILD_SESSIONS;
if (childSessions) await child(Number(childSessions), process.env.BENCH_WS_URL ?? '');
else await parent();
