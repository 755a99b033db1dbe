import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LiveMessage } from '@wa/shared';
import { eq } from 'drizzle-orm';
import jwt from 'jsonwebtoken';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ClientOptions, WebSocket } from 'ws';
import { users } from '../../core/src/db/schema/index';
import { type BusListener, type EventBus, InProcessBus } from '../../core/src/realtime/bus';
import { publishLive, publishToAdmins, publishToUser } from '../../core/src/realtime/publish';
import { type AuthState, signToken } from '../../server/src/auth/tokens';
import { UsersRepo } from '../../server/src/modules/users/users.repo';
import { attachHub, type Hub } from '../../server/src/realtime/hub';
import { type ApiHarness, setupApi } from '../support/api';
import { createUser, TEST_JWT_SECRET, type TestUser } from '../support/factories';

// ---- helpers ---------------------------------------------------------------------------------

async function until(check: () => boolean, what = 'condition', ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

interface LiveSocket {
  ws: WebSocket;
  /** every frame received, in order */
  frames: { text: string; binary: boolean }[];
  messages(): LiveMessage[];
  /** resolves with the close code */
  closed: Promise<number>;
  /** the close reason, once closed */
  reason(): string;
}

type Attempt = { opened: true; socket: LiveSocket } | { opened: false; status: number };

const opened: WebSocket[] = [];

/** Opens a socket and records every frame from the first byte on; or reports the refusal status. */
function attempt(url: string, options?: ClientOptions): Promise<Attempt> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options);
    opened.push(ws);
    const frames: LiveSocket['frames'] = [];
    let reason = '';
    const closed = new Promise<number>((r) =>
      ws.once('close', (code, why) => {
        reason = String(why);
        r(code);
      }),
    );
    ws.on('message', (data, binary) => frames.push({ text: String(data), binary }));
    ws.once('open', () =>
      resolve({
        opened: true,
        socket: {
          ws,
          frames,
          closed,
          reason: () => reason,
          messages: () => frames.map((f) => JSON.parse(f.text) as LiveMessage),
        },
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

/** A bus that remembers how many subscriptions each channel has, so the tests see the hub's. */
class WatchedBus implements EventBus {
  readonly kind = 'memory' as const;
  readonly subscriptions = new Map<string, number>();
  constructor(private readonly inner: EventBus) {}
  publish(channel: string, message: unknown) {
    return this.inner.publish(channel, message);
  }
  async subscribe(channel: string, listener: BusListener) {
    const off = await this.inner.subscribe(channel, listener);
    this.subscriptions.set(channel, this.count(channel) + 1);
    return async () => {
      this.subscriptions.set(channel, this.count(channel) - 1);
      await off();
    };
  }
  count(channel: string): number {
    return this.subscriptions.get(channel) ?? 0;
  }
  close() {
    return this.inner.close();
  }
}

// ---- setup -----------------------------------------------------------------------------------

const MAX_BUFFERED = 256 * 1024;

let h: ApiHarness;
let server: Server;
let hub: Hub;
let bus: WatchedBus;
let base: string;
let authState: (id: number) => Promise<AuthState | null>;
let memberA: TestUser;
let memberB: TestUser;
let admin: TestUser;
let dev: TestUser;
let staff: TestUser;

const wsUrl = (id: number | string, token: string) =>
  `${base}/ws?id=${encodeURIComponent(String(id))}&token=${encodeURIComponent(token)}`;

async function connect(user: TestUser, options?: ClientOptions): Promise<LiveSocket> {
  const r = await attempt(wsUrl(user.id, user.token), options);
  if (!r.opened) throw new Error(`refused with ${r.status}`);
  return r.socket;
}

/** Publishes an `error` naming a fresh device to the user's own channel and waits until the socket has it. */
async function sentinel(socket: LiveSocket, userId: number) {
  const mark = `sentinel-${Math.random()}`;
  await publishToUser(bus, userId, 'error', { deviceId: mark, message: 'sentinel' });
  await until(() => socket.frames.some((f) => f.text.includes(mark)), 'the sentinel');
  return { event: 'error', payload: { deviceId: mark, message: 'sentinel' } };
}

/** The close code, or 'still open' when the socket outlives `ms`. */
const closedWithin = (socket: LiveSocket, ms = 3000) =>
  Promise.race([socket.closed, new Promise<string>((r) => setTimeout(() => r('still open'), ms))]);

const pongs = (socket: LiveSocket) => socket.frames.filter((f) => f.text === 'pong').length;

beforeAll(async () => {
  h = await setupApi();
  const repo = new UsersRepo(h.database.db);
  authState = (id) => repo.authState(id);
  bus = new WatchedBus(new InProcessBus());
  server = createServer(h.app);
  hub = attachHub(server, { bus, jwtSecret: TEST_JWT_SECRET, authState, maxBufferedBytes: MAX_BUFFERED });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  [memberA, memberB, admin, dev, staff] = await Promise.all([
    createUser(h.database.db, { role: 'member' }),
    createUser(h.database.db, { role: 'member' }),
    createUser(h.database.db, { role: 'admin' }),
    createUser(h.database.db, { role: 'dev' }),
    createUser(h.database.db, { role: 'staff' }),
  ]);
});

afterEach(async () => {
  for (const ws of opened.splice(0)) ws.terminate();
  await until(() => hub.stats().sockets === 0, 'every socket to close');
});

afterAll(async () => {
  await hub?.close();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await bus?.close();
  await h?.close();
});

// ---- behaviour -------------------------------------------------------------------------------

describe('realtime hub: who receives what', () => {
  it('delivers an event on the member’s own channel as the exact JSON text {event, payload}', async () => {
    const a = await connect(memberA);
    const payload = {
      deviceId: 'Budi ✓ "quoted"',
      value: 12,
      income: 600,
      receiver: { id: 3, count_success: 1, count_fail: 0, last_sent: null, in_use: 0 },
    };
    await publishToUser(bus, memberA.id, 'count_success', payload);
    await until(() => a.frames.length === 1, 'one frame');
    expect(a.frames[0].binary).toBe(false);
    expect(a.frames[0].text).toBe(JSON.stringify({ event: 'count_success', payload }));
    expect(JSON.parse(a.frames[0].text)).toEqual({ event: 'count_success', payload });

    await publishLive(bus, `client-${memberA.id}`, 'sending', { deviceId: 'd-3', status: 'sending' });
    await until(() => a.frames.length === 2, 'a second frame');
    expect(a.messages()[1]).toEqual({ event: 'sending', payload: { deviceId: 'd-3', status: 'sending' } });
  });

  it('never gives a member another member’s events nor client-admin events', async () => {
    const a = await connect(memberA);
    const b = await connect(memberB);
    await publishToUser(bus, memberB.id, 'qr', { deviceId: 'd-9', qr: 'secret-of-b' });
    await publishToAdmins(bus, 'count_fail', { deviceId: 'd-of-b', value: 1, income: 0 });
    const mark = await sentinel(a, memberA.id);
    expect(a.messages()).toEqual([mark]);
    await until(() => b.frames.length === 1, 'member B’s own event');
    expect(b.messages()).toEqual([{ event: 'qr', payload: { deviceId: 'd-9', qr: 'secret-of-b' } }]);
  });

  it('gives admin and dev the client-admin events and their own, but not a member’s', async () => {
    const ad = await connect(admin);
    const dv = await connect(dev);
    const counted = { deviceId: 'd-of-a', value: 5, income: 250 };
    const clientInfo = {
      phonenumber: '6281200000002',
      pushname: 'Admin',
      server: 'c.us',
      serialized: '6281200000002@c.us',
    };
    await publishToAdmins(bus, 'count_success', counted);
    await publishToUser(bus, memberA.id, 'qr', { deviceId: 'd-1', qr: 'qr-of-a' });
    await publishToUser(bus, admin.id, 'authenticated', { deviceId: 'd-2', clientInfo });
    await publishToUser(bus, dev.id, 'idle', { deviceId: 'd-4', status: 'idle' });
    const adminMark = await sentinel(ad, admin.id);
    const devMark = await sentinel(dv, dev.id);
    expect(ad.messages()).toEqual([
      { event: 'count_success', payload: counted },
      { event: 'authenticated', payload: { deviceId: 'd-2', clientInfo } },
      adminMark,
    ]);
    expect(dv.messages()).toEqual([
      { event: 'count_success', payload: counted },
      { event: 'idle', payload: { deviceId: 'd-4', status: 'idle' } },
      devMark,
    ]);
  });

  it('gives staff its own events but not client-admin events', async () => {
    const s = await connect(staff);
    await publishToAdmins(bus, 'finished', { deviceId: 'd-1', state: 'connected', status: 'idle', message: 'done' });
    await publishToUser(bus, staff.id, 'stop', { deviceId: 'd-6', status: 'idle' });
    const mark = await sentinel(s, staff.id);
    expect(s.messages()).toEqual([{ event: 'stop', payload: { deviceId: 'd-6', status: 'idle' } }, mark]);
  });

  it('reads the role fresh at connect time, not from the token', async () => {
    const promoted = await createUser(h.database.db, { role: 'member' });
    await new UsersRepo(h.database.db).update(promoted.id, { role: 'admin' });
    const s = await connect(promoted); // the token still says member
    await publishToAdmins(bus, 'count_fail', { deviceId: 'd-n', value: 1, income: 0 });
    const mark = await sentinel(s, promoted.id);
    expect(s.messages()).toEqual([{ event: 'count_fail', payload: { deviceId: 'd-n', value: 1, income: 0 } }, mark]);
  });
});

describe('realtime hub: refused upgrades', () => {
  const refused = async (url: string) => {
    const before = hub.stats();
    const r = await attempt(url);
    expect(r.opened).toBe(false);
    expect(hub.stats()).toEqual(before);
    return r.opened ? 101 : r.status;
  };

  it('answers 401 without a token, with a bad, forged or expired token, or without an id', async () => {
    expect(await refused(`${base}/ws?id=${memberA.id}`)).toBe(401);
    expect(await refused(`${base}/ws?id=${memberA.id}&token=`)).toBe(401);
    expect(await refused(wsUrl(memberA.id, 'not-a-jwt'))).toBe(401);
    expect(await refused(wsUrl(memberA.id, signToken('another-secret', { id: memberA.id, role: 'member' })))).toBe(401);
    const expired = jwt.sign(
      { sub: String(memberA.id), role: 'member', exp: Math.floor(Date.now() / 1000) - 60 },
      TEST_JWT_SECRET,
    );
    expect(await refused(wsUrl(memberA.id, expired))).toBe(401);
    expect(await refused(`${base}/ws?token=${encodeURIComponent(memberA.token)}`)).toBe(401);
    // the same token is accepted with the right id, so the refusals above are about the token
    expect((await attempt(wsUrl(memberA.id, memberA.token))).opened).toBe(true);
  });

  it('answers 401 for the token of a deleted user', async () => {
    const gone = await createUser(h.database.db, { role: 'admin' });
    expect((await attempt(wsUrl(gone.id, gone.token))).opened).toBe(true);
    await h.database.db.delete(users).where(eq(users.id, gone.id));
    expect(await refused(wsUrl(gone.id, gone.token))).toBe(401);
  });

  it('answers 401 for a token that "log out everywhere" ended; a fresh one is admitted', async () => {
    const u = await createUser(h.database.db, { role: 'member' });
    expect((await attempt(wsUrl(u.id, u.token))).opened).toBe(true);
    await new UsersRepo(h.database.db).bumpTokenVersion(u.id);
    expect(await refused(wsUrl(u.id, u.token))).toBe(401);
    const fresh = signToken(TEST_JWT_SECRET, { id: u.id, role: 'member', tokenVersion: 1 });
    expect((await attempt(wsUrl(u.id, fresh))).opened).toBe(true);
  });

  it('answers 401 when the id is not the token’s user', async () => {
    expect(await refused(wsUrl(memberB.id, memberA.token))).toBe(401);
    expect(await refused(wsUrl(admin.id, memberA.token))).toBe(401);
    expect(await refused(wsUrl(`${memberA.id}abc`, memberA.token))).toBe(401);
  });

  it('refuses upgrades on any other path, and plain HTTP still works', async () => {
    const q = `id=${memberA.id}&token=${encodeURIComponent(memberA.token)}`;
    expect(await refused(`${base}/api/health?${q}`)).toBe(404);
    expect(await refused(`${base}/ws/other?${q}`)).toBe(404);
    expect(await refused(`${base}/wss?${q}`)).toBe(404);
    const res = await fetch(`${base.replace('ws:', 'http:')}/api/health`);
    expect(res.status).toBe(200);
  });
});

describe('realtime hub: bus subscriptions and socket health', () => {
  it('subscribes a bus channel once for its first socket and leaves it after its last socket closes', async () => {
    const channel = `ws:client-${memberA.id}`;
    expect(bus.count(channel)).toBe(0);
    expect(hub.stats()).toEqual({ sockets: 0, channels: 0 });

    const one = await connect(memberA);
    const two = await connect(memberA);
    const ad = await connect(admin);
    expect(bus.count(channel)).toBe(1);
    expect(bus.count('ws:client-admin')).toBe(1);
    expect(hub.stats()).toEqual({ sockets: 3, channels: 3 }); // client-A, client-admin, client-admin's own

    await publishToUser(bus, memberA.id, 'waiting', { deviceId: 'd-1', waitTime: 5, value: '6281200000001' });
    await until(() => one.frames.length === 1 && two.frames.length === 1, 'both sockets');

    one.ws.close();
    await one.closed;
    await until(() => hub.stats().sockets === 2, 'the hub to see the close');
    expect(bus.count(channel)).toBe(1);
    await publishToUser(bus, memberA.id, 'waiting', { deviceId: 'd-2', waitTime: 5, value: '6281200000001' });
    await until(() => two.frames.length === 2, 'the remaining socket');
    expect(one.frames).toHaveLength(1);

    two.ws.close();
    ad.ws.close();
    await until(() => hub.stats().sockets === 0, 'the hub to see both closes');
    expect(hub.stats()).toEqual({ sockets: 0, channels: 0 });
    await until(() => bus.count(channel) === 0 && bus.count('ws:client-admin') === 0, 'the bus unsubscriptions');
  });

  it('keeps a socket that answers pings and terminates one that does not', async () => {
    // a second hub with a fast heartbeat, on its own port; its frame budget is below the heartbeat's
    // rate, because the answers to the hub's own pings must not count against it
    const quick = createServer();
    const quickHub = attachHub(quick, {
      bus,
      jwtSecret: TEST_JWT_SECRET,
      authState,
      heartbeatMs: 100,
      frameBurst: 2,
      framesPerSecond: 1,
    });
    await new Promise<void>((r) => quick.listen(0, '127.0.0.1', () => r()));
    try {
      const url = (u: TestUser) =>
        `ws://127.0.0.1:${(quick.address() as AddressInfo).port}/ws?id=${u.id}&token=${encodeURIComponent(u.token)}`;
      const healthy = await attempt(url(memberA));
      const silent = await attempt(url(memberB), { autoPong: false });
      if (!healthy.opened || !silent.opened) throw new Error('refused');
      const code = await Promise.race([
        silent.socket.closed,
        new Promise((r) => setTimeout(() => r('still open'), 3000)),
      ]);
      expect(code).toBe(1006); // terminated, no close frame
      await new Promise((r) => setTimeout(r, 1000)); // ten more heartbeats
      expect(healthy.socket.ws.readyState).toBe(WebSocket.OPEN);
      expect(quickHub.stats().sockets).toBe(1);
      await publishToUser(bus, memberA.id, 'progressing', { deviceId: 'd-1', value: '6281200000001', target: 1 });
      await until(() => healthy.socket.frames.length === 1, 'the healthy socket to receive');
    } finally {
      await quickHub.close();
      quick.closeAllConnections();
      await new Promise((r) => quick.close(r));
    }
  });

  it('answers a text ping with pong and otherwise ignores what the browser sends', async () => {
    const s = await connect(memberA);
    s.ws.send('hello');
    s.ws.send(JSON.stringify({ event: 'count_success', payload: {} }));
    s.ws.send('ping');
    await until(() => s.frames.length === 1, 'the pong');
    expect(s.frames[0].text).toBe('pong');
    expect(s.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('skips a socket that does not read instead of buffering without bound', async () => {
    const fast = await connect(memberA);
    const slow = await connect(memberA);
    slow.ws.pause();
    const big = 'x'.repeat(512 * 1024);
    const total = 80; // 40 MB for the slow socket if nothing were skipped
    for (let i = 0; i < total; i++) {
      await publishToUser(bus, memberA.id, 'error', { deviceId: `big-${i}`, message: big });
      await new Promise((r) => setTimeout(r, 5)); // lets the fast socket read
    }
    await until(() => fast.frames.length === total, 'the fast socket to get everything', 15_000);
    slow.ws.resume();
    // once a later message gets through, everything the hub queued before it has arrived
    const end = Date.now() + 10_000;
    while (!slow.frames.some((f) => f.text.includes('"after"'))) {
      if (Date.now() > end) throw new Error('the slow socket never recovered');
      await publishToUser(bus, memberA.id, 'reset', {
        deviceId: 'after',
        state: 'connected',
        count_success: 0,
        count_fail: 0,
        income: 0,
      });
      await new Promise((r) => setTimeout(r, 50));
    }
    const bigOnes = slow.frames.filter((f) => f.text.includes('"big-')).length;
    expect(bigOnes).toBeGreaterThan(0);
    expect(bigOnes).toBeLessThan(total / 2);
    expect(slow.ws.readyState).toBe(WebSocket.OPEN);
  });
});

describe('realtime hub: one user’s share of the hub', () => {
  // the hub's defaults: 10 sockets per user, a burst of 20 frames and 5 frames/s per socket

  it('closes a user’s oldest socket with 4000 when an eleventh opens; the new one works, others are untouched', async () => {
    const before = hub.inspect().closed;
    const other = await connect(memberB);
    const mine: LiveSocket[] = [];
    for (let i = 0; i < 10; i++) mine.push(await connect(memberA)); // one at a time: mine[0] is the oldest
    expect(hub.stats().sockets).toBe(11);

    const eleventh = await connect(memberA);
    expect(await closedWithin(mine[0])).toBe(4000);
    expect(mine[0].reason()).toBe('too many connections');
    await until(() => hub.stats().sockets === 11, 'the hub to let go of the oldest');
    for (const s of [...mine.slice(1), eleventh, other]) expect(s.ws.readyState).toBe(WebSocket.OPEN);

    const mark = await sentinel(eleventh, memberA.id);
    for (const s of mine.slice(1)) await until(() => s.frames.length === 1, 'every open socket of A');
    expect(mine[0].frames).toEqual([]);
    expect(other.frames).toEqual([]);
    expect(eleventh.messages()).toEqual([mark]);
    const markB = await sentinel(other, memberB.id);
    expect(other.messages()).toEqual([markB]);

    // oldest first, again: a twelfth closes the second
    await connect(memberA);
    expect(await closedWithin(mine[1])).toBe(4000);
    expect(mine[2].ws.readyState).toBe(WebSocket.OPEN);
    expect(eleventh.ws.readyState).toBe(WebSocket.OPEN);
    expect(hub.inspect().closed.tooManySockets - before.tooManySockets).toBe(2);
    expect(hub.inspect().closed.flooding - before.flooding).toBe(0);
  });

  it('a closed socket frees its place: ten sockets after closing some never evict anyone', async () => {
    const first = await connect(memberA);
    const rest: LiveSocket[] = [];
    for (let i = 0; i < 9; i++) rest.push(await connect(memberA));
    rest[0].ws.close();
    await rest[0].closed;
    await until(() => hub.stats().sockets === 9, 'the hub to see the close');
    const tenth = await connect(memberA);
    expect(await closedWithin(first, 300)).toBe('still open');
    expect(tenth.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('answers a burst of pings a browser could send, and keeps the socket', async () => {
    const s = await connect(memberA);
    for (let i = 0; i < 15; i++) s.ws.send('ping');
    await until(() => pongs(s) === 15, 'fifteen pongs');
    await new Promise((r) => setTimeout(r, 1000)); // the budget refills
    for (let i = 0; i < 5; i++) s.ws.send('ping');
    await until(() => pongs(s) === 20, 'five more pongs');
    expect(s.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('closes a socket that floods with 1008 and leaves the frames beyond its budget unanswered', async () => {
    const before = hub.inspect().closed;
    const flooder = await connect(memberA);
    const sibling = await connect(memberA);
    const other = await connect(memberB);
    for (let i = 0; i < 200; i++) flooder.ws.send('ping');
    expect(await closedWithin(flooder)).toBe(1008);
    expect(flooder.reason()).toBe('too many messages');
    expect(pongs(flooder)).toBeGreaterThan(0);
    expect(pongs(flooder)).toBeLessThanOrEqual(21); // the burst, and at most one refilled meanwhile
    await until(() => hub.stats().sockets === 2, 'the hub to let go of the flooder');

    // the budget is per socket: the user's other socket and other users carry on
    sibling.ws.send('ping');
    other.ws.send('ping');
    await until(() => pongs(sibling) === 1 && pongs(other) === 1, 'the others’ pongs');
    await sentinel(sibling, memberA.id);
    expect(hub.inspect().closed.flooding - before.flooding).toBe(1);
  });

  it('counts binary frames and protocol pings against the same budget', async () => {
    const binary = await connect(memberA);
    for (let i = 0; i < 200; i++) binary.ws.send(Buffer.alloc(100), { binary: true });
    expect(await closedWithin(binary)).toBe(1008);

    const pinger = await connect(memberA);
    let answered = 0;
    pinger.ws.on('pong', () => answered++);
    for (let i = 0; i < 200; i++) pinger.ws.ping();
    expect(await closedWithin(pinger)).toBe(1008);
    expect(answered).toBeLessThanOrEqual(21);
  });

  it('closes a socket that sends a frame over 4 KB with 1009', async () => {
    const s = await connect(memberA);
    s.ws.send('x'.repeat(5 * 1024));
    expect(await closedWithin(s)).toBe(1009);
  });
});
