import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { publishToUser } from '../../core/src/realtime/publish';
import { attachHub } from '../../server/src/realtime/hub';
import { TEST_JWT_SECRET, type TestUser } from '../support/factories';
import { closedWithin, type LiveSocket, pongs, useLiveHub } from '../support/live-hub';
import { TIME_SCALE, until } from '../support/wait';

/**
 * The realtime hub's housekeeping: one bus subscription per channel, heartbeats, pings, slow
 * readers, and one user's share of the hub (sockets, frame budget, frame size). Who receives what
 * and who may connect: realtime-hub-access.test.ts.
 */

const live = useLiveHub();
const { bus, hub, attempt, authState, connect, sentinel } = live;
const { memberA, memberB, admin } = live.users;

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
      let heartbeats = 0;
      healthy.socket.ws.on('ping', () => heartbeats++);
      const code = await Promise.race([
        silent.socket.closed,
        new Promise((r) => setTimeout(() => r('still open'), 3000 * TIME_SCALE)),
      ]);
      expect(code).toBe(1006); // terminated, no close frame
      // ten more heartbeats, counted as the healthy socket hears them (each answered with a pong)
      const seen = heartbeats;
      await until(() => heartbeats >= seen + 10, 'ten more heartbeats');
      expect(healthy.socket.ws.readyState).toBe(WebSocket.OPEN);
      expect(quickHub.stats().sockets).toBe(1);
      await publishToUser(bus, memberA.id, 'progressing', {
        deviceId: 'd-1',
        value: '6281200000001',
        target: 1,
        progress: 0,
      });
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
      // the fast socket reads each message before the next: only the paused one falls behind
      await until(() => fast.frames.length === i + 1, `the fast socket to read message ${i}`, 15_000);
    }
    expect(fast.frames).toHaveLength(total);
    slow.ws.resume();
    // once a later message gets through, everything the hub queued before it has arrived
    const end = Date.now() + 10_000 * TIME_SCALE;
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
    // real time the hub measures: one second refills five frames of the budget (5 frames/s)
    await new Promise((r) => setTimeout(r, 1000));
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
