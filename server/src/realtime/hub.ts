import { type IncomingMessage, type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Actor } from '@wa/core/actor';
import type { Logger } from '@wa/core/logger';
import type { EventBus } from '@wa/core/realtime/bus';
import { channelsFor } from '@wa/shared';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { type AuthState, sessionFromToken } from '../auth/tokens';
import { type Channel, channelTable } from './hub-channels';
import {
  CLOSE_GRACE_MS,
  CLOSE_TOO_MANY_SOCKETS,
  FRAME_BURST,
  FRAMES_PER_SECOND,
  HEARTBEAT_MS,
  MAX_BUFFERED_BYTES,
  MAX_INCOMING_BYTES,
  MAX_SOCKETS_PER_USER,
} from './hub-limits';
import { originAllowed } from './hub-origin';
import { CLOSE_TOKEN_ENDED, watchTokenVersions } from './token-versions';

/** Where browsers open their socket: `/ws?id={userId}&token={jwt}`. */
export const HUB_PATH = '/ws';
export interface HubDeps {
  bus: EventBus;
  jwtSecret: string;
  /** the user's current role and token version, or null when the user no longer exists */
  authState(userId: number): Promise<AuthState | null>;
  log?: Logger;
  /** ping interval; a socket that has not answered the previous ping is terminated (default 30 s) */
  heartbeatMs?: number;
  /** per-socket send-buffer limit above which messages are skipped (default 4 MB) */
  maxBufferedBytes?: number;
  /** open sockets per user on this process; one more closes the oldest with 4000 (default 10, see MAX_SOCKETS_PER_USER) */
  maxSocketsPerUser?: number;
  /** inbound frames a socket may send at once before it is closed with 1008 (default 20, see FRAME_BURST) */
  frameBurst?: number;
  /** inbound frames per second a socket may keep up (default 5) */
  framesPerSecond?: number;
  /**
   * PUBLIC_URL's origins: a browser's socket must come from one of them; none (the default), from
   * the host it connects to (see originAllowed). A socket without `Origin` is no browser's and passes.
   */
  origins?: readonly string[];
}

export interface Hub {
  /** stops accepting sockets, closes the open ones (1001) and leaves every bus channel */
  close(): Promise<void>;
  /** open sockets, and the channels this hub is subscribed to on the bus */
  stats(): { sockets: number; channels: number };
  /** read-only view for the dev monitor: open sockets per channel, and each socket's user, channels and open time */
  inspect(): HubInspection;
}

export interface HubInspection {
  channels: Record<string, number>;
  sockets: { userId: number; channels: string[]; since: Date }[];
  /** sockets this hub closed since it started: pushed out by a user's newer socket, or for flooding */
  closed: { tooManySockets: number; flooding: number };
}

interface Client {
  ws: WebSocket;
  userId: number;
  /** the version of the token it was admitted with: a bump past it closes the socket */
  tokenVersion: number;
  channels: Channel[];
  alive: boolean;
  dropped: number;
  since: Date;
  /** frame budget left (see FRAME_BURST), as of `refilledAt` (performance.now()) */
  tokens: number;
  refilledAt: number;
  /** the hub has closed it: it no longer counts for its user and its frames are not handled */
  shut: boolean;
}

/** Answers an upgrade request with a plain HTTP status and closes the connection. */
function refuse(socket: Duplex, status: number): void {
  if (socket.destroyed) return;
  const reason = STATUS_CODES[status] ?? 'Error';
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain\r\n` +
      `Content-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`,
  );
}

/**
 * The realtime hub (§7): authenticates WebSocket upgrades on `/ws`, joins each socket to exactly
 * `channelsFor(userId, role)`, and relays the bus messages of those channels (`ws:{channel}`) to
 * the sockets connected to this process. A browser's socket must come from the dashboard's own
 * origin (hub-origin.ts). This file admits sockets and keeps them within their limits; the bus
 * side (one subscription per channel, the fan-out) is hub-channels.ts. The socket is
 * server→client only. When a user's token version is bumped on any replica
 * (TOKEN_VERSION_CHANNEL), the user's sockets opened with an older token are closed (4001).
 */
export function attachHub(server: Server, deps: HubDeps): Hub {
  const { bus, jwtSecret, log } = deps;
  const heartbeatMs = deps.heartbeatMs ?? HEARTBEAT_MS;
  const maxBuffered = deps.maxBufferedBytes ?? MAX_BUFFERED_BYTES;
  const maxPerUser = Math.max(1, deps.maxSocketsPerUser ?? MAX_SOCKETS_PER_USER);
  const frameBurst = deps.frameBurst ?? FRAME_BURST;
  const framesPerSecond = deps.framesPerSecond ?? FRAMES_PER_SECOND;
  const origins = deps.origins ?? [];

  const wss = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    perMessageDeflate: false,
    maxPayload: MAX_INCOMING_BYTES,
    // pings are answered by hand, within the frame budget
    autoPong: false,
  });
  const clients = new Set<Client>();
  /** each user's open sockets, oldest first (a Set keeps insertion order) */
  const byUser = new Map<number, Set<Client>>();
  const closedFor = { tooManySockets: 0, flooding: 0 };
  /** bus unsubscriptions and upgrades under way, awaited by close() */
  const pending = new Set<Promise<unknown>>();
  let closing = false;

  const track = (p: Promise<unknown>) => {
    pending.add(p);
    p.finally(() => pending.delete(p));
  };
  const channels = channelTable({ bus, log, maxBuffered, track });

  function forget(client: Client): void {
    const mine = byUser.get(client.userId);
    if (!mine) return;
    mine.delete(client);
    if (mine.size === 0) byUser.delete(client.userId);
  }

  /**
   * Closes a socket for a reason of the hub's. It stops counting for its user at once, and one that
   * does not answer the close frame is cut soon instead of holding its place for ws's 30 s.
   */
  function shut(client: Client, code: number, reason: string): void {
    if (client.shut) return;
    client.shut = true;
    forget(client);
    client.ws.close(code, reason);
    const cut = setTimeout(() => client.ws.terminate(), CLOSE_GRACE_MS);
    cut.unref();
    client.ws.once('close', () => clearTimeout(cut));
  }

  // a user's tokens older than a bumped version have ended: so have the sockets opened with them
  const versions = watchTokenVersions(bus, log, (userId, version) => {
    for (const c of [...(byUser.get(userId) ?? [])])
      if (c.tokenVersion < version) shut(c, CLOSE_TOKEN_ENDED, 'token ended');
  });

  /** Spends one frame of the socket's budget; false (and the socket closed with 1008) when none is left. */
  function take(client: Client): boolean {
    if (client.shut) return false;
    const now = performance.now();
    client.tokens = Math.min(frameBurst, client.tokens + ((now - client.refilledAt) * framesPerSecond) / 1000);
    client.refilledAt = now;
    if (client.tokens >= 1) {
      client.tokens -= 1;
      client.alive = true;
      return true;
    }
    closedFor.flooding += 1;
    log?.warn({ userId: client.userId }, 'realtime: socket sent too many frames, closing it');
    shut(client, 1008, 'too many messages');
    return false;
  }

  function open(ws: WebSocket, userId: number, tokenVersion: number, joined: Channel[]): void {
    const client: Client = {
      ws,
      userId,
      tokenVersion,
      channels: joined,
      alive: true,
      dropped: 0,
      since: new Date(),
      tokens: frameBurst,
      refilledAt: performance.now(),
      shut: false,
    };
    clients.add(client);
    for (const channel of joined) channel.sockets.add(client);
    let mine = byUser.get(userId);
    if (!mine) {
      mine = new Set();
      byUser.set(userId, mine);
    }
    mine.add(client);
    for (const oldest of mine) {
      if (mine.size <= maxPerUser) break;
      closedFor.tooManySockets += 1;
      log?.debug({ userId }, 'realtime: too many sockets, closing the oldest');
      shut(oldest, CLOSE_TOO_MANY_SOCKETS, 'too many connections');
    }
    ws.on('pong', () => {
      // the answer to the heartbeat's ping is free, so a fast heartbeat cannot use up the budget
      if (client.alive) take(client);
      else client.alive = true;
    });
    ws.on('ping', (data: Buffer) => {
      if (take(client)) ws.pong(data);
    });
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (take(client) && !isBinary && String(data) === 'ping') ws.send('pong');
    });
    ws.on('error', (err) => log?.debug({ err, userId }, 'realtime: socket error'));
    ws.once('close', () => {
      clients.delete(client);
      forget(client);
      for (const channel of joined) {
        channel.sockets.delete(client);
        channels.release(channel);
      }
      if (client.dropped > 0) log?.warn({ userId, dropped: client.dropped }, 'realtime: slow socket closed');
    });
    if (versions.ended(userId, tokenVersion)) shut(client, CLOSE_TOKEN_ENDED, 'token ended'); // ended while admitted
  }

  async function admit(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL, onError: () => void) {
    const token = url.searchParams.get('token');
    const idParam = url.searchParams.get('id');
    if (!token || idParam === null || !/^\d+$/.test(idParam)) return refuse(socket, 401);
    // as the API: an ended token is refused; a bump after this read closes the socket (it is heard)
    let session: { actor: Actor; tokenVersion: number } | null;
    try {
      await versions.ready();
      session = await sessionFromToken(jwtSecret, token, (id) => deps.authState(id));
    } catch (err) {
      log?.error({ err }, 'realtime: could not read the user');
      return refuse(socket, 503);
    }
    if (!session || session.actor.id !== Number(idParam)) return refuse(socket, 401);
    const { id: userId, role } = session.actor;
    if (closing || socket.destroyed) return refuse(socket, 503);

    // subscribe before the handshake completes: once the browser sees `open`, nothing is missed
    const joined = channelsFor(userId, role).map((name) => channels.acquire(name));
    try {
      await Promise.all(joined.map((c) => c.ready));
    } catch (err) {
      log?.error({ err, userId }, 'realtime: bus subscribe failed');
      for (const c of joined) channels.release(c);
      return refuse(socket, 503);
    }
    if (closing || socket.destroyed) {
      for (const c of joined) channels.release(c);
      return refuse(socket, 503);
    }
    socket.off('error', onError);
    let opened = false;
    wss.handleUpgrade(req, socket, head, (ws) => {
      opened = true;
      open(ws, userId, session.tokenVersion, joined);
    });
    // without verifyClient, ws completes (or aborts) the handshake synchronously
    if (!opened) for (const c of joined) channels.release(c);
  }

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      return refuse(socket, 400);
    }
    if (url.pathname !== HUB_PATH) {
      // another upgrade handler may own that path; with none, nobody will answer it
      if (server.listenerCount('upgrade') === 1) refuse(socket, 404);
      return;
    }
    if (closing) return refuse(socket, 503);
    if (!originAllowed(req.headers, origins)) {
      log?.warn(
        { origin: req.headers.origin, host: req.headers.host },
        'realtime: refused a socket from another origin (behind a proxy that rewrites Host, set PUBLIC_URL)',
      );
      return refuse(socket, 403);
    }
    const onError = () => socket.destroy();
    socket.on('error', onError);
    track(
      admit(req, socket, head, url, onError).catch((err) => {
        log?.error({ err }, 'realtime: upgrade failed');
        refuse(socket, 500);
      }),
    );
  };
  server.on('upgrade', onUpgrade);

  const heartbeat = setInterval(() => {
    for (const client of clients) {
      if (!client.alive) {
        client.ws.terminate();
        continue;
      }
      client.alive = false;
      client.ws.ping();
    }
  }, heartbeatMs);
  heartbeat.unref();

  const closed = (ws: WebSocket) =>
    ws.readyState === WebSocket.CLOSED ? Promise.resolve() : new Promise<void>((r) => ws.once('close', () => r()));

  return {
    stats: () => ({ sockets: clients.size, channels: channels.size() }),
    inspect: () => ({
      channels: channels.counts(),
      sockets: [...clients].map((c) => ({
        userId: c.userId,
        channels: c.channels.map((ch) => ch.name),
        since: c.since,
      })),
      closed: { ...closedFor },
    }),
    async close() {
      if (closing) return;
      closing = true;
      server.off('upgrade', onUpgrade);
      clearInterval(heartbeat);
      const open = [...clients].map((c) => c.ws);
      for (const ws of open) ws.close(1001, 'server shutting down');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(open.map(closed)),
        new Promise<void>((r) => {
          timer = setTimeout(r, 1000);
        }),
      ]);
      clearTimeout(timer);
      for (const ws of open) ws.terminate();
      await Promise.all(open.map(closed));
      while (pending.size > 0) await Promise.allSettled([...pending]);
      await versions.close().catch((err) => log?.warn({ err }, 'realtime: bus unsubscribe failed'));
      wss.close();
    },
  };
}
