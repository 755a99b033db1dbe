import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { closedPort } from '@wa/core/testing/ports';
import { LOGIN_TEXTS } from '@wa/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientOptions } from 'whatsapp-web.js';
import { BaileysDriver } from './baileys';
import { MemoryAuthKeyStore } from './baileys-auth';
import { FakeSocket, FakeWhatsApp } from './baileys-fake';
import { connectFailureOf } from './connect-failure';
import { MemorySessionStore } from './session-store';
import { SimDriver, simulatedConnectFailure } from './sim';
import { ConnectFailure, type DriverEvent, type ProxyConfig, type WhatsAppSession } from './types';
import { type ClientLike, type PageLike, WwebjsDriver } from './wwebjs';

/**
 * A login whose connection fails before it shows a code, on every driver: WhatsApp unreachable,
 * the proxy refusing the connection or its credentials, nothing answering. Each driver ends the
 * login with a ConnectFailure naming the cause (start() rejects, or a `connect_failed` event),
 * within its connect timeout; a slow QR over a connection that works is still waited for. Every
 * server here listens on 127.0.0.1.
 */

const PROXY: ProxyConfig = { protocol: 'http', host: '127.0.0.1', port: 1 };
const WAIT = { timeout: 5000, interval: 10 };

function record(session: WhatsAppSession): DriverEvent[] {
  const events: DriverEvent[] = [];
  session.on((e) => events.push(e));
  return events;
}

const failedOf = (events: DriverEvent[]) =>
  vi.waitFor(() => {
    const e = events.find((x) => x.type === 'connect_failed');
    if (e?.type !== 'connect_failed') throw new Error(`no connect_failed yet: ${JSON.stringify(events)}`);
    return e;
  }, WAIT);

// ---- local network stand-ins ----

const servers: Server[] = [];
const open = new Set<Socket>();

async function listen(onConnection: (socket: Socket) => void): Promise<number> {
  const server = createServer((socket) => {
    open.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => open.delete(socket));
    onConnection(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** An HTTP proxy that answers every CONNECT with 407 (the credentials are wrong). */
const authRefusingProxy = () =>
  listen((socket) => {
    socket.once('data', () => {
      socket.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="p"\r\nContent-Length: 0\r\n\r\n',
      );
    });
  });

/** A SOCKS5 proxy that asks for a username and password and refuses them. */
const socksRefusingCredentials = () =>
  listen((socket) => {
    let step = 0;
    socket.on('data', () => {
      // greeting → "username/password, please"; credentials → "no"
      if (step++ === 0) socket.write(Buffer.from([0x05, 0x02]));
      else socket.end(Buffer.from([0x01, 0x01]));
    });
  });

/** A host that accepts connections and never says a word (a proxy or network that swallows them). */
const silent = () => listen(() => {});

afterEach(async () => {
  for (const s of open) s.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

// ---- the cause, as the create page reads it ----

describe('connectFailureOf: the cause of a failed connection, without the proxy address', () => {
  it('names Chromium net errors, Node socket errors, a proxy 407 and SOCKS refusals', () => {
    const of = (e: unknown, proxy: ProxyConfig | null = null) => {
      const f = connectFailureOf(e, proxy);
      return f ? { kind: f.kind, message: f.message } : null;
    };
    expect(of(new Error('net::ERR_NAME_NOT_RESOLVED at https://web.whatsapp.com/'))).toEqual({
      kind: 'unreachable',
      message: LOGIN_TEXTS.unreachable('ERR_NAME_NOT_RESOLVED', false),
    });
    expect(of(new Error('net::ERR_PROXY_CONNECTION_FAILED at https://web.whatsapp.com/'), PROXY)?.kind).toBe(
      'proxy_refused',
    );
    expect(of(new Error('net::ERR_INVALID_AUTH_CREDENTIALS at https://web.whatsapp.com/'), PROXY)?.kind).toBe(
      'proxy_auth',
    );
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.9.8.7:3128'), { code: 'ECONNREFUSED' });
    // Baileys wraps the socket's error in a Boom whose `data` is the original
    const boom = Object.assign(new Error('WebSocket Error (connect ECONNREFUSED 10.9.8.7:3128)'), { data: refused });
    expect(of(boom, PROXY)).toEqual({ kind: 'proxy_refused', message: LOGIN_TEXTS.proxyRefused('ECONNREFUSED') });
    expect(of(boom)?.kind).toBe('unreachable');
    expect(of(boom, PROXY)?.message).not.toContain('10.9.8.7');
    expect(of(new Error('Unexpected server response: 407'), PROXY)).toEqual({
      kind: 'proxy_auth',
      message: LOGIN_TEXTS.proxyAuth('HTTP 407'),
    });
    expect(of(new Error('Socks5 Authentication failed'), PROXY)?.kind).toBe('proxy_auth');
    expect(of(new Error('Socks5 proxy rejected connection - HostUnreachable'), PROXY)?.message).toBe(
      LOGIN_TEXTS.unreachable('SOCKS HostUnreachable', true),
    );
    expect(of(Object.assign(new Error('getaddrinfo ENOTFOUND web.whatsapp.com'), { code: 'ENOTFOUND' }))?.kind).toBe(
      'unreachable',
    );
    expect(of(new Error('Opening handshake has timed out'))?.kind).toBe('timeout');
    // not a connection failure: the browser would not even start
    expect(of(new Error('Failed to launch the browser process! spawn /usr/bin/chromium ENOENT'))).toBeNull();
  });
});

// ---- Baileys ----

describe('Baileys: a login that cannot reach WhatsApp', () => {
  let store: MemorySessionStore;
  let keys: MemoryAuthKeyStore;
  let drivers: BaileysDriver[];
  beforeEach(() => {
    store = new MemorySessionStore();
    keys = new MemoryAuthKeyStore();
    drivers = [];
  });
  afterEach(async () => {
    await Promise.all(drivers.map((d) => d.close()));
  });
  const driverWith = (extra: Partial<ConstructorParameters<typeof BaileysDriver>[0]>) => {
    const d = new BaileysDriver({ store, keys, reconnectDelaysMs: [5], ...extra });
    drivers.push(d);
    return d;
  };
  const start = async (driver: BaileysDriver, proxy: ProxyConfig | null = null) => {
    const session = driver.createSession({ clientId: 'id-1-fail', proxy });
    const events = record(session);
    await session.start();
    return { session, events };
  };

  it('a close before any QR is a connect_failed naming the cause, once, with no reconnect and nothing stored', async () => {
    const made: FakeSocket[] = [];
    const driver = driverWith({
      socketFactory: (config) => {
        const s = new FakeSocket(config);
        made.push(s);
        return s;
      },
    });
    const { session, events } = await start(driver);
    const lost = Object.assign(new Error('getaddrinfo ENOTFOUND web.whatsapp.com'), { code: 'ENOTFOUND' });
    made[0]?.emit('connection.update', {
      connection: 'close',
      lastDisconnect: {
        error: Object.assign(new Error('WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com)'), {
          output: { statusCode: 408 },
          data: lost,
        }),
        date: new Date(),
      },
    });
    expect(events).toEqual([
      { type: 'connect_failed', kind: 'unreachable', message: LOGIN_TEXTS.unreachable('ENOTFOUND', false) },
    ]);
    expect(await session.getState()).toBe('disconnected');
    await new Promise((r) => setTimeout(r, 30));
    expect(made).toHaveLength(1);
    expect(await store.exists('id-1-fail')).toBe(false);
  });

  it('a login that lost its connection after showing a QR ends as before: disconnected, no connect_failed', async () => {
    const whatsapp = new FakeWhatsApp();
    const driver = driverWith({ socketFactory: whatsapp.factory });
    const { events } = await start(driver);
    await vi.waitFor(() => expect(events.map((e) => e.type)).toContain('qr'), WAIT);
    whatsapp.socket('id-1-fail').close(408, 'QR refs attempts ended');
    expect(events.map((e) => (e.type === 'state' ? `state:${e.state}` : e.type))).toEqual(['qr', 'state:disconnected']);
    whatsapp.close();
  });

  it('a login whose socket never opens fails as timed out after connectTimeoutMs; a QR before that is waited for', async () => {
    const made: FakeSocket[] = [];
    const driver = driverWith({
      connectTimeoutMs: 150,
      socketFactory: (config) => {
        const s = new FakeSocket(config);
        made.push(s);
        return s;
      },
    });
    const hung = await start(driver);
    const failed = await failedOf(hung.events);
    expect(failed).toEqual({ type: 'connect_failed', kind: 'timeout', message: LOGIN_TEXTS.timedOut(1, false) });
    expect(made[0]?.ended).toBe(true);

    // a QR inside the timeout: the login goes on past it
    const quick = driver.createSession({ clientId: 'id-2-quick' });
    const events = record(quick);
    await quick.start();
    made[1]?.qr('in-time');
    await new Promise((r) => setTimeout(r, 250));
    expect(events).toEqual([{ type: 'qr', qr: 'in-time' }]);
  });

  it('an open WebSocket stops the clock: the QR may take longer than connectTimeoutMs', async () => {
    const driver = driverWith({
      connectTimeoutMs: 100,
      socketFactory: (config) => {
        const s = new FakeSocket(config);
        const ws = new EventEmitter();
        Object.assign(s, { ws });
        setTimeout(() => ws.emit('open'), 10);
        setTimeout(() => s.qr('slow-qr'), 300);
        return s;
      },
    });
    const { events } = await start(driver);
    await vi.waitFor(() => expect(events).toEqual([{ type: 'qr', qr: 'slow-qr' }]), WAIT);
  });

  it('through real sockets: a refused proxy, a proxy answering 407, SOCKS refusing credentials, a silent proxy, and no proxy with WhatsApp refusing', async () => {
    const cases: { proxy: ProxyConfig | null; url?: string; kind: string; message: string }[] = [
      {
        proxy: { ...PROXY, port: await closedPort() },
        kind: 'proxy_refused',
        message: LOGIN_TEXTS.proxyRefused('ECONNREFUSED'),
      },
      {
        proxy: { ...PROXY, port: await authRefusingProxy(), username: 'u', password: 'wrong' },
        kind: 'proxy_auth',
        message: LOGIN_TEXTS.proxyAuth('HTTP 407'),
      },
      {
        proxy: {
          protocol: 'socks5',
          host: '127.0.0.1',
          port: await socksRefusingCredentials(),
          username: 'u',
          password: 'x',
        },
        // socks5 resolves the target itself: keep it on 127.0.0.1 too
        url: 'wss://127.0.0.1:1/ws/chat',
        kind: 'proxy_auth',
        message: LOGIN_TEXTS.proxyAuth('SOCKS authentication'),
      },
      { proxy: { ...PROXY, port: await silent() }, kind: 'timeout', message: LOGIN_TEXTS.timedOut(1, true) },
      {
        proxy: null,
        url: `ws://127.0.0.1:${await closedPort()}/ws/chat`,
        kind: 'unreachable',
        message: LOGIN_TEXTS.unreachable('ECONNREFUSED', false),
      },
    ];
    for (const c of cases) {
      const driver = driverWith({ connectTimeoutMs: 800, ...(c.url ? { waWebSocketUrl: c.url } : {}) });
      const t0 = Date.now();
      const { events } = await start(driver, c.proxy);
      const failed = await failedOf(events);
      expect({ kind: failed.kind, message: failed.message }, JSON.stringify(c.proxy)).toEqual({
        kind: c.kind,
        message: c.message,
      });
      expect(Date.now() - t0).toBeLessThan(4000);
      expect(events.filter((e) => e.type === 'qr' || e.type === 'code' || e.type === 'auth_failure')).toEqual([]);
    }
  }, 20_000);
});

// ---- whatsapp-web.js ----

/** whatsapp-web.js's Client as far as start() reaches it: initialize() as scripted, the page it opens. */
class FakeClient extends EventEmitter implements ClientLike {
  pupPage: (PageLike & EventEmitter) | null = null;
  pupBrowser: ClientLike['pupBrowser'] = null;
  constructor(private readonly init: (client: FakeClient) => Promise<void>) {
    super();
  }
  initialize() {
    return this.init(this);
  }
  async getState() {
    return null;
  }
  async sendMessage() {
    return null;
  }
  async isRegisteredUser() {
    return false;
  }
  async logout() {}
  async destroy() {}
  /** the browser is up: whatsapp-web.js sets pupPage before it navigates */
  openPage(): EventEmitter {
    const page = new EventEmitter();
    this.pupPage = page;
    return page;
  }
}

describe('whatsapp-web.js: a login that cannot reach WhatsApp', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'wa-wwebjs-connect-'));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });
  const driverWith = (init: (client: FakeClient) => Promise<void>, connectTimeoutMs = 150) =>
    new WwebjsDriver({
      store: new MemorySessionStore(),
      dataDir,
      chromePath: '/usr/bin/chromium',
      initTimeoutMs: 3000,
      connectTimeoutMs,
      clientFactory: (_options: ClientOptions) => new FakeClient(init),
    });

  it("start() rejects with a ConnectFailure naming the navigation's net error", async () => {
    const cases = [
      [
        'net::ERR_NAME_NOT_RESOLVED at https://web.whatsapp.com/',
        null,
        LOGIN_TEXTS.unreachable('ERR_NAME_NOT_RESOLVED', false),
      ],
      [
        'net::ERR_PROXY_CONNECTION_FAILED at https://web.whatsapp.com/',
        PROXY,
        LOGIN_TEXTS.proxyRefused('ERR_PROXY_CONNECTION_FAILED'),
      ],
      [
        'net::ERR_INVALID_AUTH_CREDENTIALS at https://web.whatsapp.com/',
        PROXY,
        LOGIN_TEXTS.proxyAuth('ERR_INVALID_AUTH_CREDENTIALS'),
      ],
    ] as const;
    for (const [error, proxy, message] of cases) {
      const driver = driverWith(async (c) => {
        c.openPage();
        throw new Error(error);
      });
      const err = await driver
        .createSession({ clientId: 'id-1-nav', proxy })
        .start()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectFailure);
      expect((err as ConnectFailure).message).toBe(message);
    }
  });

  it('a page with no response within connectTimeoutMs fails as timed out; one that answers may load longer', async () => {
    const hung = driverWith(async (c) => {
      c.openPage();
      await new Promise(() => {});
    });
    const t0 = Date.now();
    const err = await hung
      .createSession({ clientId: 'id-1-hung', proxy: PROXY })
      .start()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectFailure);
    expect(err).toMatchObject({ kind: 'timeout', message: LOGIN_TEXTS.timedOut(1, true) });
    expect(Date.now() - t0).toBeLessThan(2000);

    const slow = driverWith(async (c) => {
      const page = c.openPage();
      // the response comes at once, maybe before the driver listens: the address shows it then
      let url = 'about:blank';
      Object.assign(page, { url: () => url });
      setTimeout(() => {
        url = 'https://web.whatsapp.com/';
        page.emit('response', {});
      }, 5);
      // WhatsApp Web answered and takes its time to load: longer than the connect timeout
      await new Promise((r) => setTimeout(r, 400));
    });
    await expect(slow.createSession({ clientId: 'id-2-slow' }).start()).resolves.toBeUndefined();
  });
});

// ---- the simulator ----

describe('sim: a login through a .invalid proxy cannot connect', () => {
  const CONFIG = {
    seed: 1,
    pairDelayMs: 50,
    sendFailRate: 0,
    sendLatencyMs: [0, 0] as [number, number],
    restoreDelayMs: 5,
    qrRefreshMs: 60_000,
    registeredRate: 1,
    deliverRate: 0,
    readRate: 0,
    ackDelayMs: 60_000,
  };

  it('refused.invalid, auth.invalid, timeout.invalid and any other .invalid host fail as a real driver reports them; other proxies log in', async () => {
    const driver = new SimDriver(new MemorySessionStore(), CONFIG);
    const proxy = (host: string): ProxyConfig => ({ protocol: 'http', host, port: 8080 });
    const expected = [
      ['refused.invalid', 'proxy_refused'],
      ['auth.invalid', 'proxy_auth'],
      ['timeout.invalid', 'timeout'],
      ['offline.invalid', 'unreachable'],
    ] as const;
    for (const [host, kind] of expected) {
      const session = driver.createSession({ clientId: `id-1-${host}`, proxy: proxy(host) });
      const events = record(session);
      await session.start();
      const failed = await failedOf(events);
      expect(failed).toEqual({
        type: 'connect_failed',
        kind,
        message: simulatedConnectFailure(proxy(host))?.message,
      });
      expect(events).toHaveLength(1);
      expect(await session.getState()).toBe('disconnected');
      await session.destroy();
    }
    expect(simulatedConnectFailure(proxy('10.0.0.1'))).toBeNull();
    const fine = driver.createSession({ clientId: 'id-2-fine', proxy: proxy('10.0.0.1') });
    const events = record(fine);
    await fine.start();
    expect(events[0]?.type).toBe('qr');
    await driver.close();
  });
});
