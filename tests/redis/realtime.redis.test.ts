import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LiveMessage } from '@wa/shared';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Database } from '../../core/src/db/client';
import { users } from '../../core/src/db/schema/index';
import { type EventBus, RedisBus } from '../../core/src/realtime/bus';
import { publishToAdmins, publishToUser } from '../../core/src/realtime/publish';
import type { AuthState } from '../../server/src/auth/tokens';
import { UsersRepo } from '../../server/src/modules/users/users.repo';
import { UsersService } from '../../server/src/modules/users/users.service';
import { attachHub, type Hub } from '../../server/src/realtime/hub';
import { CLOSE_TOKEN_ENDED } from '../../server/src/realtime/token-versions';
import { createTestDatabase } from '../support/db';
import { createUser, TEST_JWT_SECRET, type TestUser } from '../support/factories';
import { TIME_SCALE, until } from '../support/wait';

const url = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
if (!url) throw new Error('the redis tier needs TEST_REDIS_URL (or REDIS_URL)');
const redisUrl: string = url;

// one key prefix per run, so runs never see each other's messages
const prefix = `test-${randomBytes(4).toString('hex')}:`;

// ---- helpers ---------------------------------------------------------------------------------

interface LiveSocket {
  ws: WebSocket;
  frames: string[];
  messages(): LiveMessage[];
  closed: Promise<number>;
}

type Attempt = { opened: true; socket: LiveSocket } | { opened: false; status: number };

const opened: WebSocket[] = [];

function attempt(address: string): Promise<Attempt> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(address);
    opened.push(ws);
    const frames: string[] = [];
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.on('message', (data) => frames.push(String(data)));
    ws.once('open', () =>
      resolve({
        opened: true,
        socket: { ws, frames, closed, messages: () => frames.map((f) => JSON.parse(f) as LiveMessage) },
      }),
    );
    ws.once('unexpected-response', (_req, res) => {
      resolve({ opened: false, status: res.statusCode ?? 0 });
      res.resume();
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

/**
 * Waits until a bus delivers its own messages. RedisBus subscribes without waiting for ioredis to
 * be ready: a SUBSCRIBE sent between connect and ready fails the ready check, ioredis reconnects,
 * and what is published meanwhile is lost. A probe round trip gets past that window.
 */
async function connected(bus: EventBus) {
  const probe = `probe-${randomBytes(4).toString('hex')}`;
  let got = false;
  const off = await bus.subscribe(probe, () => {
    got = true;
  });
  await until(
    async () => {
      await bus.publish(probe, 1);
      await new Promise((r) => setTimeout(r, 20));
      return got;
    },
    'the bus to connect',
    10_000,
  );
  await off();
}

/** One API replica: its own http server, hub and Redis connections. */
interface Replica {
  name: string;
  bus: RedisBus;
  hub: Hub;
  server: Server;
  base: string;
  close(): Promise<void>;
}

let database: Database;
let authState: (id: number) => Promise<AuthState | null>;
const replicas: Replica[] = [];

async function startReplica(name: string): Promise<Replica> {
  const bus = new RedisBus(redisUrl, prefix);
  await connected(bus);
  const server = createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  const hub = attachHub(server, { bus, jwtSecret: TEST_JWT_SECRET, authState });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  let closed = false;
  const replica: Replica = {
    name,
    bus,
    hub,
    server,
    base: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      if (closed) return;
      closed = true;
      await hub.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await bus.close();
    },
  };
  replicas.push(replica);
  return replica;
}

const wsUrl = (r: Replica, id: number | string, token: string) =>
  `${r.base}/ws?id=${encodeURIComponent(String(id))}&token=${encodeURIComponent(token)}`;

async function connect(r: Replica, user: TestUser): Promise<LiveSocket> {
  const a = await attempt(wsUrl(r, user.id, user.token));
  if (!a.opened) throw new Error(`${r.name} refused with ${a.status}`);
  return a.socket;
}

let a: Replica;
let b: Replica;
/** a third bus, as a worker process publishing */
let worker: RedisBus;
let inspect: Redis;
let memberA: TestUser;
let memberB: TestUser;
let admin: TestUser;
let dev: TestUser;
let staff: TestUser;

/** How many Redis connections are subscribed to the live channel. */
async function subscribers(channel: string): Promise<number> {
  const reply = (await inspect.call('PUBSUB', 'NUMSUB', `${prefix}ws:${channel}`)) as [string, number];
  return Number(reply[1]);
}

/** Publishes an `error` naming a fresh device to the user's channel from the worker and waits until the socket has it. */
async function sentinel(socket: LiveSocket, userId: number) {
  const mark = `sentinel-${Math.random()}`;
  await publishToUser(worker, userId, 'error', { deviceId: mark, message: 'sentinel' });
  await until(() => socket.frames.some((f) => f.includes(mark)), 'the sentinel');
  return { event: 'error', payload: { deviceId: mark, message: 'sentinel' } };
}

beforeAll(async () => {
  database = await createTestDatabase();
  const repo = new UsersRepo(database.db);
  authState = (id) => repo.authState(id);
  a = await startReplica('replica A');
  b = await startReplica('replica B');
  worker = new RedisBus(redisUrl, prefix);
  inspect = new Redis(redisUrl);
  [memberA, memberB, admin, dev, staff] = await Promise.all([
    createUser(database.db, { role: 'member' }),
    createUser(database.db, { role: 'member' }),
    createUser(database.db, { role: 'admin' }),
    createUser(database.db, { role: 'dev' }),
    createUser(database.db, { role: 'staff' }),
  ]);
});

afterEach(async () => {
  for (const ws of opened.splice(0)) ws.terminate();
  await until(() => replicas.every((r) => r.hub.stats().sockets === 0), 'every socket to close');
});

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.close()));
  await worker?.close();
  inspect?.disconnect();
  await database?.close();
});

// ---- behaviour -------------------------------------------------------------------------------

describe('realtime hub over Redis: two API replicas', () => {
  it('delivers an event published on one replica’s bus to a socket on the other, as exact JSON', async () => {
    const s = await connect(b, memberA);
    const payload = { deviceId: 'Halo ✓ "x"', value: 3, income: 150 };
    await publishToUser(a.bus, memberA.id, 'count_success', payload);
    await until(() => s.frames.length === 1, 'the event on replica B');
    expect(s.frames[0]).toBe(JSON.stringify({ event: 'count_success', payload }));
  });

  it('never gives a member another member’s events nor client-admin events, whichever replica', async () => {
    const onA = await connect(a, memberA);
    const onB = await connect(b, memberA);
    const other = await connect(a, memberB);
    await publishToUser(a.bus, memberB.id, 'qr', { deviceId: 'd-9', qr: 'qr-of-b' });
    await publishToUser(b.bus, memberB.id, 'code', { deviceId: 'd-9', code: 'ABCD1234' });
    await publishToAdmins(a.bus, 'count_fail', { deviceId: 'd-9', value: 1, income: 0 });
    await publishToAdmins(b.bus, 'count_fail', { deviceId: 'd-9', value: 2, income: 0 });
    const mark = await sentinel(onA, memberA.id);
    await until(() => onB.frames.length === 1, 'the sentinel on B');
    expect(onA.messages()).toEqual([mark]);
    expect(onB.messages()).toEqual([mark]);
    await until(() => other.frames.length === 2, 'member B’s own events');
    expect(other.messages().map((m) => m.event)).toEqual(['qr', 'code']);
  });

  it('gives admin and dev on different replicas each client-admin event once, and staff none', async () => {
    const ad = await connect(a, admin);
    const dv = await connect(b, dev);
    const st = await connect(b, staff);
    const finished = {
      deviceId: 'd-4',
      state: 'connected',
      status: 'idle',
      message: 'done',
      reason: 'finished',
    } as const;
    const clientInfo = {
      phonenumber: '6281200000001',
      pushname: 'Admin',
      server: 'c.us',
      serialized: '6281200000001@c.us',
    };
    await publishToAdmins(worker, 'finished', finished);
    await publishToUser(worker, admin.id, 'authenticated', { deviceId: 'd-1', clientInfo });
    await publishToUser(worker, dev.id, 'idle', { deviceId: 'd-2', status: 'idle' });
    const adMark = await sentinel(ad, admin.id);
    const dvMark = await sentinel(dv, dev.id);
    const stMark = await sentinel(st, staff.id);
    expect(ad.messages()).toEqual([
      { event: 'finished', payload: finished },
      { event: 'authenticated', payload: { deviceId: 'd-1', clientInfo } },
      adMark,
    ]);
    expect(dv.messages()).toEqual([
      { event: 'finished', payload: finished },
      { event: 'idle', payload: { deviceId: 'd-2', status: 'idle' } },
      dvMark,
    ]);
    expect(st.messages()).toEqual([stMark]);
  });

  it('subscribes each replica once per channel and unsubscribes from Redis after the last socket', async () => {
    const channel = `client-${memberA.id}`;
    expect(await subscribers(channel)).toBe(0);
    const one = await connect(a, memberA);
    const two = await connect(a, memberA);
    expect(await subscribers(channel)).toBe(1); // replica A, once for both sockets
    const three = await connect(b, memberA);
    expect(await subscribers(channel)).toBe(2);
    expect(a.hub.stats()).toEqual({ sockets: 2, channels: 1 });

    await publishToUser(worker, memberA.id, 'waiting', { deviceId: 'd-1', waitTime: 5, value: '6281200000001' });
    await until(() => [one, two, three].every((s) => s.frames.length === 1), 'all three sockets');

    three.ws.close();
    await until(async () => (await subscribers(channel)) === 1, 'replica B to unsubscribe');
    expect(b.hub.stats()).toEqual({ sockets: 0, channels: 0 });
    one.ws.close();
    await until(() => a.hub.stats().sockets === 1, 'replica A to see one close');
    expect(await subscribers(channel)).toBe(1);
    two.ws.close();
    await until(async () => (await subscribers(channel)) === 0, 'replica A to unsubscribe');
    expect(a.hub.stats()).toEqual({ sockets: 0, channels: 0 });
  });

  it('refuses with 401 a bad token, a deleted user and a mismatched id, and 404 another path', async () => {
    const status = async (address: string) => {
      const r = await attempt(address);
      return r.opened ? 101 : r.status;
    };
    const gone = await createUser(database.db, { role: 'member' });
    expect(await status(wsUrl(b, gone.id, gone.token))).toBe(101);
    await database.db.delete(users).where(eq(users.id, gone.id));
    expect(await status(wsUrl(b, gone.id, gone.token))).toBe(401);
    expect(await status(`${b.base}/ws?id=${memberA.id}`)).toBe(401);
    expect(await status(wsUrl(b, memberA.id, `${memberA.token}x`))).toBe(401);
    expect(await status(wsUrl(b, memberB.id, memberA.token))).toBe(401);
    expect(await status(`${b.base}/socket?id=${memberA.id}&token=${encodeURIComponent(memberA.token)}`)).toBe(404);
    expect(await subscribers(`client-${memberB.id}`)).toBe(0);
  });

  it('"log out everywhere" on one replica closes the user’s sockets on both (4001), and nobody else’s', async () => {
    const u = await createUser(database.db, { role: 'admin' });
    const onA = await connect(a, u);
    const onB = await connect(b, u);
    const other = await connect(b, memberA);
    // replica A's users service, as its route calls it
    await new UsersService(new UsersRepo(database.db), a.bus).logoutEverywhere({ id: u.id, role: 'admin' });
    const closedOr = (s: LiveSocket) =>
      Promise.race([s.closed, new Promise<string>((r) => setTimeout(() => r('still open'), 3000 * TIME_SCALE))]);
    expect(await closedOr(onA)).toBe(CLOSE_TOKEN_ENDED);
    expect(await closedOr(onB)).toBe(CLOSE_TOKEN_ENDED);
    await publishToAdmins(worker, 'count_fail', { deviceId: 'after-logout', value: 1, income: 0 });
    await sentinel(other, memberA.id);
    expect([...onA.frames, ...onB.frames].some((f) => f.includes('after-logout'))).toBe(false);
    const again = await attempt(wsUrl(b, u.id, u.token));
    expect(again.opened ? 101 : again.status).toBe(401);
  });

  it('closing one replica closes its sockets (1001) and leaves Redis, while the other keeps delivering', async () => {
    const c = await startReplica('replica C');
    const onC = await connect(c, memberB);
    const onA = await connect(a, memberB);
    expect(await subscribers(`client-${memberB.id}`)).toBe(2);
    await c.close();
    expect(await onC.closed).toBe(1001);
    await until(async () => (await subscribers(`client-${memberB.id}`)) === 1, 'replica C to leave Redis');
    await publishToUser(worker, memberB.id, 'reconnecting', { deviceId: 'd-5', state: 'reconnecting...' });
    await until(() => onA.frames.length === 1, 'the event on replica A');
    expect(onC.frames).toEqual([]);
  });
});
