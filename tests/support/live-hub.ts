import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LiveMessage } from '@wa/shared';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type ClientOptions, WebSocket } from 'ws';
import { type BusListener, type EventBus, InProcessBus } from '../../core/src/realtime/bus';
import { publishToUser } from '../../core/src/realtime/publish';
import type { AuthState } from '../../server/src/auth/tokens';
import { UsersRepo } from '../../server/src/modules/users/users.repo';
import { attachHub, type Hub } from '../../server/src/realtime/hub';
import { type ApiHarness, setupApi } from './api';
import { createUser, TEST_JWT_SECRET, type TestUser } from './factories';
import { until } from './wait';

/** A browser's socket to the hub, as the tests see it. */
export interface LiveSocket {
  ws: WebSocket;
  /** every frame received, in order */
  frames: { text: string; binary: boolean }[];
  messages(): LiveMessage[];
  /** resolves with the close code */
  closed: Promise<number>;
  /** the close reason, once closed */
  reason(): string;
}

/** An upgrade that opened, or the status it was refused with. */
export type Attempt = { opened: true; socket: LiveSocket } | { opened: false; status: number };

/** A bus that remembers how many subscriptions each channel has, so the tests see the hub's. */
export class WatchedBus implements EventBus {
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
  ping() {
    return this.inner.ping();
  }
  close() {
    return this.inner.close();
  }
}

/** The hub's send buffer in these suites: a socket that does not read is skipped past it. */
export const MAX_BUFFERED = 256 * 1024;

/** The realtime hub on a real port over a test API, with what its suites call it through. */
export interface LiveHub {
  h: ApiHarness;
  bus: WatchedBus;
  hub: Hub;
  /** ws://127.0.0.1:port of the hub's server, set once beforeAll has run */
  base: string;
  /** the hub's view of a user's role and token version, from the users table */
  authState(id: number): Promise<AuthState | null>;
  users: Record<'memberA' | 'memberB' | 'admin' | 'dev' | 'staff', TestUser>;
  /** Opens a socket and records every frame from the first byte on; or reports the refusal status. */
  attempt(url: string, options?: ClientOptions): Promise<Attempt>;
  wsUrl(id: number | string, token: string): string;
  /** A socket of `user` that opened; throws if the hub refused it. */
  connect(user: TestUser, options?: ClientOptions): Promise<LiveSocket>;
  /** Publishes an `error` naming a fresh device to the user's own channel and waits until the socket has it. */
  sentinel(socket: LiveSocket, userId: number): Promise<LiveMessage>;
}

/**
 * The realtime suites' world: an API harness whose http server carries the hub on `/ws` (the app
 * and the hub share a WatchedBus), two members, an admin, a dev and a staff user. Started in beforeAll; every socket a
 * test opened is terminated after it, and the whole closes in afterAll.
 */
export function useLiveHub(): LiveHub {
  const opened: WebSocket[] = [];
  let server: Server | undefined;
  let repo: UsersRepo | undefined;
  const live: LiveHub = {
    h: {} as ApiHarness,
    bus: new WatchedBus(new InProcessBus()),
    hub: {} as Hub,
    base: '',
    authState: (id) => repo!.authState(id),
    users: { memberA: {}, memberB: {}, admin: {}, dev: {}, staff: {} } as LiveHub['users'],
    attempt: (url, options) =>
      new Promise((resolve, reject) => {
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
      }),
    wsUrl: (id, token) => `${live.base}/ws?id=${encodeURIComponent(String(id))}&token=${encodeURIComponent(token)}`,
    connect: async (user, options) => {
      const r = await live.attempt(live.wsUrl(user.id, user.token), options);
      if (!r.opened) throw new Error(`refused with ${r.status}`);
      return r.socket;
    },
    sentinel: async (socket, userId) => {
      const mark = `sentinel-${Math.random()}`;
      await publishToUser(live.bus, userId, 'error', { deviceId: mark, message: 'sentinel' });
      await until(() => socket.frames.some((f) => f.text.includes(mark)), 'the sentinel');
      return { event: 'error', payload: { deviceId: mark, message: 'sentinel' } };
    },
  };

  beforeAll(async () => {
    // the app publishes on the hub's bus, as in production: a token-version bump closes sockets
    Object.assign(live.h, await setupApi({ bus: live.bus }));
    repo = new UsersRepo(live.h.database.db);
    server = createServer(live.h.app);
    Object.assign(
      live.hub,
      attachHub(server, {
        bus: live.bus,
        jwtSecret: TEST_JWT_SECRET,
        authState: live.authState,
        maxBufferedBytes: MAX_BUFFERED,
      }),
    );
    const listening = server;
    await new Promise<void>((r) => listening.listen(0, '127.0.0.1', () => r()));
    live.base = `ws://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    const db = live.h.database.db;
    const [memberA, memberB, admin, dev, staff] = await Promise.all([
      createUser(db, { role: 'member' }),
      createUser(db, { role: 'member' }),
      createUser(db, { role: 'admin' }),
      createUser(db, { role: 'dev' }),
      createUser(db, { role: 'staff' }),
    ]);
    Object.assign(live.users.memberA, memberA);
    Object.assign(live.users.memberB, memberB);
    Object.assign(live.users.admin, admin);
    Object.assign(live.users.dev, dev);
    Object.assign(live.users.staff, staff);
  });

  afterEach(async () => {
    for (const ws of opened.splice(0)) ws.terminate();
    await until(() => live.hub.stats().sockets === 0, 'every socket to close');
  });

  afterAll(async () => {
    await live.hub.close?.();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    await live.bus.close();
    await live.h.close?.();
  });

  return live;
}

/** The close code, or 'still open' when the socket outlives `ms`. */
export const closedWithin = (socket: LiveSocket, ms = 3000) =>
  Promise.race([socket.closed, new Promise<string>((r) => setTimeout(() => r('still open'), ms))]);

/** How many pongs the socket has received. */
export const pongs = (socket: LiveSocket) => socket.frames.filter((f) => f.text === 'pong').length;
