import type { SimConfig } from '@wa/core/config-engine';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemorySessionStore } from './session-store';
import { SimDriver, simIsRegistered } from './sim';
import { type DriverEvent, SendError, UnsupportedProxyError, type WhatsAppSession } from './types';

const FAST: SimConfig = {
  seed: 42,
  pairDelayMs: 20,
  sendFailRate: 0,
  sendLatencyMs: [0, 0],
  restoreDelayMs: 5,
  qrRefreshMs: 1000,
  registeredRate: 0.9,
  // no receipts unless a test asks for them (see 'receipts')
  deliverRate: 0,
  readRate: 0,
  ackDelayMs: 5,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const drivers: SimDriver[] = [];
function makeDriver(config: Partial<SimConfig> = {}, store = new MemorySessionStore()) {
  const driver = new SimDriver(store, { ...FAST, ...config });
  drivers.push(driver);
  return { driver, store };
}

afterEach(async () => {
  await Promise.all(drivers.splice(0).map((d) => d.close()));
});

function record(session: WhatsAppSession): DriverEvent[] {
  const events: DriverEvent[] = [];
  session.on((event) => events.push(event));
  return events;
}

async function waitForConnected(events: DriverEvent[]) {
  await vi.waitFor(() => expect(events).toContainEqual({ type: 'state', state: 'connected' }), { timeout: 2000 });
}

/** logs a fresh session in and returns it with its events */
async function connected(driver: SimDriver, clientId = 'id-1', pairingNumber?: string) {
  const session = driver.createSession({ clientId, pairingNumber });
  const events = record(session);
  await session.start();
  await waitForConnected(events);
  return { session, events };
}

const MEDIA = { path: '/tmp/x.jpg', mimetype: 'image/jpeg', filename: 'x.jpg' };

describe('SimDriver login', () => {
  it('logs in with a QR: qr… → authenticated → ready → connected, and stores the session', async () => {
    const { driver, store } = makeDriver({ pairDelayMs: 45, qrRefreshMs: 10 });
    expect(driver.name).toBe('sim');
    const session = driver.createSession({ clientId: 'id-qr' });
    const events = record(session);
    expect(await session.getState()).toBe('unknown');
    await session.start();
    expect(events[0]?.type).toBe('qr');
    expect(await session.getState()).toBe('unknown');
    await waitForConnected(events);

    const types = events.map((e) => e.type);
    const firstNonQr = types.findIndex((t) => t !== 'qr');
    expect(firstNonQr).toBeGreaterThanOrEqual(2); // refreshed at least once in 45 ms at 10 ms
    expect(types.slice(firstNonQr)).toEqual(['authenticated', 'ready', 'state']);

    const qrs = events.flatMap((e) => (e.type === 'qr' ? [e.qr] : []));
    for (const qr of qrs) expect(qr).toMatch(/^2@[A-Za-z0-9+/]+=*(,[A-Za-z0-9+/]+=*){3}$/);
    expect(new Set(qrs).size).toBe(qrs.length);

    const ready = events.find((e) => e.type === 'ready');
    if (ready?.type !== 'ready') throw new Error('no ready event');
    const { info } = ready;
    expect(info.phonenumber).toMatch(/^628\d{9,10}$/);
    expect(info.server).toBe('c.us');
    expect(info.serialized).toBe(`${info.phonenumber}@c.us`);
    expect(info.pushname).toBe(`Sim ${info.phonenumber.slice(-4)}`);

    expect(await session.getState()).toBe('connected');
    const blob = store.data.get('id-qr');
    expect(blob).toBeDefined();
    expect(JSON.parse(blob!.toString('utf8'))).toEqual({ phonenumber: info.phonenumber, pushname: info.pushname });
  });

  it('logs in with a pairing code for the given number, without any QR', async () => {
    const { driver, store } = makeDriver();
    const session = driver.createSession({ clientId: 'id-pair', pairingNumber: '6281234567890' });
    const events = record(session);
    await session.start();
    expect(events).toHaveLength(1);
    const first = events[0];
    if (first?.type !== 'code') throw new Error(`expected a code first, got ${first?.type}`);
    expect(first.code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
    await waitForConnected(events);
    expect(events.map((e) => e.type)).toEqual(['code', 'authenticated', 'ready', 'state']);
    expect(events[2]).toEqual({
      type: 'ready',
      info: {
        phonenumber: '6281234567890',
        pushname: 'Sim 7890',
        server: 'c.us',
        serialized: '6281234567890@c.us',
      },
    });
    expect(store.data.has('id-pair')).toBe(true);
  });

  it('restores a stored session without a QR, with the stored info', async () => {
    const store = new MemorySessionStore();
    await store.save('id-r', Buffer.from(JSON.stringify({ phonenumber: '6285511112222', pushname: 'Toko Maju' })));
    const { driver } = makeDriver({ restoreDelayMs: 30, pairDelayMs: 10 }, store);
    const session = driver.createSession({ clientId: 'id-r' });
    const events = record(session);
    const started = Date.now();
    await session.start();
    expect(events).toEqual([]);
    await waitForConnected(events);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(events).toEqual([
      { type: 'authenticated' },
      {
        type: 'ready',
        info: {
          phonenumber: '6285511112222',
          pushname: 'Toko Maju',
          server: 'c.us',
          serialized: '6285511112222@c.us',
        },
      },
      { type: 'state', state: 'connected' },
    ]);
    expect(store.data.has('id-r')).toBe(true);
  });

  it('restores, on another driver, the session a QR login stored', async () => {
    const { driver, store } = makeDriver();
    const first = await connected(driver, 'id-again');
    const info = first.events.find((e) => e.type === 'ready');
    await first.session.destroy();
    expect(store.data.has('id-again')).toBe(true);

    const { driver: other } = makeDriver({ seed: 999 }, store);
    const { events } = await connected(other, 'id-again');
    expect(events.map((e) => e.type)).toEqual(['authenticated', 'ready', 'state']);
    expect(events.find((e) => e.type === 'ready')).toEqual(info);
  });

  it('reports auth_failure and falls back to a QR login when the stored session is unreadable', async () => {
    const store = new MemorySessionStore();
    await store.save('id-bad', Buffer.from('not json'));
    const { driver } = makeDriver({}, store);
    const session = driver.createSession({ clientId: 'id-bad' });
    const events = record(session);
    await session.start();
    expect(events.map((e) => e.type)).toEqual(['auth_failure', 'qr']);
    await waitForConnected(events);
    expect(JSON.parse(store.data.get('id-bad')!.toString()).phonenumber).toMatch(/^628\d{9,10}$/);
  });

  it('refuses to start twice and to start after destroy', async () => {
    const { driver } = makeDriver();
    const session = driver.createSession({ clientId: 'id-twice' });
    await session.start();
    await expect(session.start()).rejects.toThrow(/already started/);

    const other = driver.createSession({ clientId: 'id-gone' });
    await other.destroy();
    await expect(other.start()).rejects.toThrow(/destroyed/);
  });

  it('rejects start when destroyed while loading the stored session', async () => {
    const { driver } = makeDriver();
    const session = driver.createSession({ clientId: 'id-race' });
    const starting = session.start();
    await session.destroy();
    await expect(starting).rejects.toThrow(/destroyed/);
  });

  it('refuses SOCKS proxies with credentials, like the real driver', async () => {
    const { driver } = makeDriver();
    const session = driver.createSession({
      clientId: 'id-socks',
      proxy: { protocol: 'socks5', host: 'p.example', port: 1080, username: 'u', password: 'p' },
    });
    await expect(session.start()).rejects.toBeInstanceOf(UnsupportedProxyError);
    const http = driver.createSession({
      clientId: 'id-http',
      proxy: { protocol: 'http', host: 'p.example', port: 8080, username: 'u', password: 'p' },
    });
    await expect(http.start()).resolves.toBeUndefined();
  });

  it('refuses a second live session for the same clientId', async () => {
    const { driver } = makeDriver();
    const session = driver.createSession({ clientId: 'id-dup' });
    expect(() => driver.createSession({ clientId: 'id-dup' })).toThrow(/already exists/);
    await session.destroy();
    expect(() => driver.createSession({ clientId: 'id-dup' })).not.toThrow();
  });
});

describe('SimDriver determinism', () => {
  async function identities(seed: number, order: string[], pairing: boolean) {
    const { driver } = makeDriver({ seed, pairDelayMs: 5 });
    const result: Record<string, { first: DriverEvent | undefined; ready: DriverEvent | undefined }> = {};
    for (const clientId of order) {
      const { events } = await connected(driver, clientId, pairing ? '6281111111111' : undefined);
      result[clientId] = { first: events[0], ready: events.find((e) => e.type === 'ready') };
    }
    await driver.close();
    return result;
  }

  it('gives the same codes, QRs and numbers for the same seed, whatever the start order', async () => {
    const ids = ['id-a', 'id-b', 'id-c'];
    const a = await identities(7, ids, false);
    const b = await identities(7, [...ids].reverse(), false);
    expect(b).toEqual(a);
    const codesA = await identities(7, ids, true);
    const codesB = await identities(7, [...ids].reverse(), true);
    expect(codesB).toEqual(codesA);
    // and different sessions get different identities
    const numbers = ids.map((id) => JSON.stringify(a[id]?.ready));
    expect(new Set(numbers).size).toBe(3);
  });

  it('gives different codes, QRs and numbers for a different seed', async () => {
    const ids = ['id-a', 'id-b'];
    const a = await identities(7, ids, false);
    const b = await identities(8, ids, false);
    for (const id of ids) {
      expect(b[id]?.first).not.toEqual(a[id]?.first);
      expect(b[id]?.ready).not.toEqual(a[id]?.ready);
    }
    const codesA = await identities(7, ids, true);
    const codesB = await identities(8, ids, true);
    for (const id of ids) expect(codesB[id]?.first).not.toEqual(codesA[id]?.first);
  });
});

describe('SimDriver sending', () => {
  async function blast(seed: number, sendFailRate: number, count = 2000) {
    const { driver } = makeDriver({ seed, sendFailRate, sendLatencyMs: [0, 0], pairDelayMs: 1 });
    const { session } = await connected(driver, 'id-send');
    const results = await Promise.allSettled(
      Array.from({ length: count }, (_, i) =>
        i % 2 === 0 ? session.sendText(`62812000${i}`, 'hi') : session.sendMedia(`62812000${i}`, MEDIA, 'cap'),
      ),
    );
    await driver.close();
    return results.map((r) => {
      if (r.status === 'fulfilled') return r.value.id;
      const error = r.reason as SendError;
      expect(error).toBeInstanceOf(SendError);
      expect(error.code).toBe('failed');
      return 'FAILED';
    });
  }

  it('fails about sendFailRate of the sends, with unique ids for the others', async () => {
    const outcomes = await blast(3, 0.1);
    const failures = outcomes.filter((o) => o === 'FAILED').length;
    // expected 200, standard deviation ≈ 13.4
    expect(failures).toBeGreaterThan(140);
    expect(failures).toBeLessThan(260);
    const ids = outcomes.filter((o) => o !== 'FAILED');
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]).toMatch(/^true_\d+@c\.us_3EB0[0-9A-F]+$/);
  });

  it('repeats exactly with the same seed and differs with another', async () => {
    const a = await blast(3, 0.3, 500);
    const b = await blast(3, 0.3, 500);
    const c = await blast(4, 0.3, 500);
    expect(b).toEqual(a);
    expect(c.map((o) => o === 'FAILED')).not.toEqual(a.map((o) => o === 'FAILED'));
  });

  it('never fails at rate 0 and always fails at rate 1', async () => {
    expect((await blast(5, 0, 200)).filter((o) => o === 'FAILED')).toHaveLength(0);
    expect((await blast(5, 1, 200)).filter((o) => o !== 'FAILED')).toHaveLength(0);
  });

  it('waits a latency within sendLatencyMs', async () => {
    const { driver } = makeDriver({ sendLatencyMs: [30, 40] });
    const { session } = await connected(driver);
    const started = Date.now();
    await session.sendText('6281234', 'hello');
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(29);
    expect(elapsed).toBeLessThan(1000);
  });

  it('refuses to send or check before the login, with not_connected', async () => {
    const { driver } = makeDriver({ pairDelayMs: 10_000 });
    const session = driver.createSession({ clientId: 'id-early' });
    await expect(session.sendText('6281', 'x')).rejects.toMatchObject({ name: 'SendError', code: 'not_connected' });
    await session.start();
    await expect(session.sendText('6281', 'x')).rejects.toMatchObject({ code: 'not_connected' });
    await expect(session.sendMedia('6281', MEDIA)).rejects.toMatchObject({ code: 'not_connected' });
    await expect(session.isRegistered('6281')).rejects.toMatchObject({ code: 'not_connected' });
  });

  it('rejects an in-flight send with not_connected when the session is destroyed', async () => {
    const { driver } = makeDriver({ sendLatencyMs: [200, 200] });
    const { session } = await connected(driver);
    const sending = session.sendText('6281', 'x');
    await session.destroy();
    await expect(sending).rejects.toMatchObject({ code: 'not_connected' });
  });

  it('answers isRegistered the same for the same number and seed, about registeredRate of the time', async () => {
    const { driver } = makeDriver({ registeredRate: 0.7 });
    const { session } = await connected(driver);
    const numbers = Array.from({ length: 1000 }, (_, i) => `6281${String(i * 7919).padStart(8, '0')}`);
    const answers = await Promise.all(numbers.map((n) => session.isRegistered(n)));
    const yes = answers.filter(Boolean).length;
    expect(yes).toBeGreaterThan(640);
    expect(yes).toBeLessThan(760);
    // the same answers again, on another session of another driver with the same seed
    const { driver: other } = makeDriver({ registeredRate: 0.7, sendLatencyMs: [1, 3] });
    const { session: second } = await connected(other, 'id-other');
    expect(await Promise.all(numbers.map((n) => second.isRegistered(n)))).toEqual(answers);
    expect(numbers.map((n) => simIsRegistered({ seed: FAST.seed, registeredRate: 0.7 }, n))).toEqual(answers);
    // another seed gives another world
    expect(numbers.map((n) => simIsRegistered({ seed: 43, registeredRate: 0.7 }, n))).not.toEqual(answers);
    expect(numbers.every((n) => simIsRegistered({ seed: 1, registeredRate: 1 }, n))).toBe(true);
    expect(numbers.some((n) => simIsRegistered({ seed: 1, registeredRate: 0 }, n))).toBe(false);
  });
});

describe('SimDriver control and lifecycle', () => {
  it('simulates disconnect, reconnect, conflict and suspend', async () => {
    const { driver } = makeDriver();
    const { session, events } = await connected(driver, 'id-ctl');
    events.length = 0;
    const control = driver.control('id-ctl');

    control.disconnect();
    expect(events).toEqual([{ type: 'state', state: 'disconnected' }]);
    expect(await session.getState()).toBe('disconnected');
    await expect(session.sendText('6281', 'x')).rejects.toMatchObject({ code: 'not_connected' });

    control.reconnect();
    expect(await session.getState()).toBe('connected');
    await expect(session.sendText('6281', 'x')).resolves.toHaveProperty('id');

    control.conflict();
    expect(await session.getState()).toBe('conflict');
    control.suspend();
    expect(await session.getState()).toBe('suspended');
    expect(events).toEqual([
      { type: 'state', state: 'disconnected' },
      { type: 'state', state: 'connected' },
      { type: 'state', state: 'conflict' },
      { type: 'state', state: 'suspended' },
    ]);
  });

  it('simulates what WhatsApp reports besides the connection: revokes, replies, bans', async () => {
    const { driver } = makeDriver();
    const { session, events } = await connected(driver, 'id-rev');
    const control = driver.control('id-rev');
    expect(() => control.revoke()).toThrow(/no message to revoke/);
    const { id } = await session.sendText('6281234', 'Halo');
    events.length = 0;
    expect(control.revoke()).toBe(id);
    expect(control.revoke('true_other')).toBe('true_other');
    control.reply({ from: '+62 812-34', text: 'STOP' });
    control.reply({ from: '6281234', buttonId: 'stop-1' });
    control.ban('spam');
    expect(events).toEqual([
      { type: 'revoke', messageId: id },
      { type: 'revoke', messageId: 'true_other' },
      { type: 'message', from: '6281234', text: 'STOP' },
      { type: 'message', from: '6281234', text: '', buttonId: 'stop-1' },
      { type: 'restricted', reason: 'spam' },
    ]);
    control.disconnect();
    expect(() => control.ban()).toThrow(/not connected/);
  });

  it('sends receipts: delivered, then read, by the rates it is given and repeatably for a seed', async () => {
    const receipts = async (deliverRate: number, readRate: number) => {
      const { driver } = makeDriver({ deliverRate, readRate, ackDelayMs: 5 });
      const { session, events } = await connected(driver, 'id-ack');
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) ids.push((await session.sendText(`62812${i}`, 'x')).id);
      await sleep(250);
      // receipts of different messages may interleave differently on a busy machine: compare sets
      const acks = events
        .filter((e) => e.type === 'ack')
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      await driver.close();
      return { ids, acks };
    };
    const all = await receipts(1, 1);
    expect(all.acks.filter((a) => a.type === 'ack' && a.ack === 'delivered')).toHaveLength(20);
    expect(all.acks.filter((a) => a.type === 'ack' && a.ack === 'read')).toHaveLength(20);
    expect(new Set(all.acks.map((a) => a.type === 'ack' && a.messageId))).toEqual(new Set(all.ids));
    const none = await receipts(0, 1);
    expect(none.acks).toEqual([]);
    const some = await receipts(0.5, 0.5);
    const delivered = some.acks.filter((a) => a.type === 'ack' && a.ack === 'delivered').length;
    expect(delivered).toBeGreaterThan(3);
    expect(delivered).toBeLessThan(17);
    expect((await receipts(0.5, 0.5)).acks).toEqual(some.acks);
  });

  it('fails the next sends and checks by the kind it is told, then sends again', async () => {
    const { driver } = makeDriver();
    const { session } = await connected(driver, 'id-fail');
    const control = driver.control('id-fail');
    control.fail(2, 'rate-limit');
    await expect(session.sendText('6281', 'x')).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(session.isRegistered('6281')).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(session.sendText('6281', 'x')).resolves.toHaveProperty('id');
    control.fail(1, 'restricted');
    await expect(session.sendText('6281', 'x')).rejects.toMatchObject({ code: 'restricted' });
    control.fail(1, 'generic');
    await expect(session.sendText('6281', 'x')).rejects.toMatchObject({ code: 'failed' });
    await expect(session.sendText('6281', 'x')).resolves.toHaveProperty('id');
  });

  it('control().logout() deletes the stored session and reports loggedOut', async () => {
    const { driver, store } = makeDriver();
    const { session, events } = await connected(driver, 'id-out');
    expect(store.data.has('id-out')).toBe(true);
    events.length = 0;
    await driver.control('id-out').logout();
    expect(events).toEqual([{ type: 'state', state: 'loggedOut' }]);
    expect(store.data.has('id-out')).toBe(false);
    expect(await session.getState()).toBe('loggedOut');
    expect(() => driver.control('id-out').reconnect()).toThrow(/not logged in/);
  });

  it('refuses to control an unknown session or to reconnect one that never logged in', async () => {
    const { driver } = makeDriver({ pairDelayMs: 10_000 });
    expect(() => driver.control('nobody')).toThrow(/no live sim session/);
    const session = driver.createSession({ clientId: 'id-new' });
    await session.start();
    expect(() => driver.control('id-new').reconnect()).toThrow(/not logged in/);
  });

  it('session.logout() during a QR login deletes the store, reports loggedOut and stops the QRs', async () => {
    const { driver, store } = makeDriver({ pairDelayMs: 40, qrRefreshMs: 5 });
    const session = driver.createSession({ clientId: 'id-lo' });
    const events = record(session);
    await session.start();
    await session.logout();
    const count = events.length;
    expect(events.at(-1)).toEqual({ type: 'state', state: 'loggedOut' });
    await sleep(70);
    expect(events).toHaveLength(count);
    expect(store.data.has('id-lo')).toBe(false);
  });

  it('destroy stops every further event, keeps the stored session and is idempotent', async () => {
    const { driver, store } = makeDriver({ pairDelayMs: 30, qrRefreshMs: 5 });
    const session = driver.createSession({ clientId: 'id-d' });
    const events = record(session);
    await session.start();
    expect(driver.liveCount()).toBe(1);
    await session.destroy();
    await session.destroy();
    expect(driver.liveCount()).toBe(0);
    const count = events.length;
    await sleep(60);
    expect(events).toHaveLength(count);
    expect(events.some((e) => e.type === 'authenticated')).toBe(false);
    expect(store.data.has('id-d')).toBe(false);

    // a logged-in session keeps its stored session when destroyed
    const { session: live } = await connected(driver, 'id-kept');
    await live.destroy();
    expect(store.data.has('id-kept')).toBe(true);
    expect(() => driver.control('id-kept')).toThrow();
  });

  it('destroy during the restore delay emits nothing', async () => {
    const store = new MemorySessionStore();
    await store.save('id-rd', Buffer.from(JSON.stringify({ phonenumber: '628123456789', pushname: 'x' })));
    const { driver } = makeDriver({ restoreDelayMs: 20 }, store);
    const session = driver.createSession({ clientId: 'id-rd' });
    const events = record(session);
    await session.start();
    await session.destroy();
    await sleep(50);
    expect(events).toEqual([]);
    expect(store.data.has('id-rd')).toBe(true);
  });

  it('close() destroys every live session', async () => {
    const { driver } = makeDriver({ pairDelayMs: 30 });
    const all: DriverEvent[] = [];
    for (const id of ['c1', 'c2', 'c3']) {
      const session = driver.createSession({ clientId: id });
      session.on((e) => all.push(e));
      await session.start();
    }
    expect(driver.liveCount()).toBe(3);
    await driver.close();
    expect(driver.liveCount()).toBe(0);
    const count = all.length;
    await sleep(60);
    expect(all).toHaveLength(count);
  });

  it('survives a throwing listener and honours unsubscribe', async () => {
    const { driver } = makeDriver();
    const session = driver.createSession({ clientId: 'id-l' });
    session.on(() => {
      throw new Error('boom');
    });
    const removed: DriverEvent[] = [];
    const off = session.on((e) => removed.push(e));
    const events = record(session);
    off();
    await session.start();
    await waitForConnected(events);
    expect(events.map((e) => e.type)).toEqual(['qr', 'authenticated', 'ready', 'state']);
    expect(removed).toEqual([]);
  });

  it('stops mid-login when a listener destroys the session, even for the other listeners', async () => {
    const { driver, store } = makeDriver();
    const session = driver.createSession({ clientId: 'id-mid' });
    session.on((e) => {
      if (e.type === 'authenticated') void session.destroy();
    });
    const events = record(session);
    await session.start();
    await vi.waitFor(() => expect(driver.liveCount()).toBe(0), { timeout: 2000 });
    await sleep(30);
    expect(events.map((e) => e.type)).toEqual(['qr']);
    expect(store.data.has('id-mid')).toBe(true);
  });

  it('stops mid-login when a listener logs the session out', async () => {
    const { driver, store } = makeDriver();
    const session = driver.createSession({ clientId: 'id-mid-out' });
    const events = record(session);
    session.on((e) => {
      if (e.type === 'authenticated') void session.logout();
    });
    await session.start();
    await vi.waitFor(() => expect(events).toContainEqual({ type: 'state', state: 'loggedOut' }), { timeout: 2000 });
    await sleep(30);
    expect(events.map((e) => e.type)).toEqual(['qr', 'authenticated', 'state']);
    expect(await session.getState()).toBe('loggedOut');
    expect(store.data.has('id-mid-out')).toBe(false);
  });

  it('holds thousands of sessions', async () => {
    const { driver } = makeDriver({ pairDelayMs: 5, restoreDelayMs: 5 });
    const before = process.memoryUsage().heapUsed;
    const sessions = Array.from({ length: 5000 }, (_, i) => driver.createSession({ clientId: `id-${i}` }));
    let ready = 0;
    for (const s of sessions) s.on((e) => e.type === 'ready' && ready++);
    await Promise.all(sessions.map((s) => s.start()));
    await vi.waitFor(() => expect(ready).toBe(5000), { timeout: 10_000 });
    expect(driver.liveCount()).toBe(5000);
    const grown = process.memoryUsage().heapUsed - before;
    expect(grown).toBeLessThan(200 * 1024 * 1024);
    await driver.close();
    expect(driver.liveCount()).toBe(0);
  });
});

describe('SimDriver config', () => {
  it('refuses an invalid config in the driver constructor', () => {
    const store = new MemorySessionStore();
    expect(() => new SimDriver(store, { ...FAST, qrRefreshMs: 0 })).toThrow(/qrRefreshMs/);
    expect(() => new SimDriver(store, { ...FAST, sendLatencyMs: [5, 1] })).toThrow(/sendLatencyMs/);
    expect(() => new SimDriver(store, { ...FAST, sendFailRate: 1.5 })).toThrow(/sendFailRate/);
  });
});
