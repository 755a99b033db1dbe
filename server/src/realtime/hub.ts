import { type IncomingMessage, type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { channelsFor, normalizeRole, type Role } from '@wa/shared';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { verifyToken } from '../http/auth';
import type { Logger } from '../logger';
import type { EventBus } from './bus';
import { liveBusChannel } from './publish';

/** Where browsers open their socket: `/ws?id={userId}&token={jwt}`. */
export const HUB_PATH = '/ws';
export const HEARTBEAT_MS = 30_000;
/** A socket whose unsent data exceeds this misses messages instead of growing the heap. */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** Browsers only ever send `ping`; anything big is a misuse. */
const MAX_INCOMING_BYTES = 4 * 1024;

export interface HubDeps {
  bus: EventBus;
  jwtSecret: string;
  /** the user's current role, or null when the user no longer exists */
  roleOf(userId: number): Promise<Role | null>;
  log?: Logger;
  /** ping interval; a socket that has not answered the previous ping is terminated (default 30 s) */
  heartbeatMs?: number;
  /** per-socket send-buffer limit above which messages are skipped (default 4 MB) */
  maxBufferedBytes?: number;
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
}

interface Client {
  ws: WebSocket;
  userId: number;
  channels: Channel[];
  alive: boolean;
  dropped: number;
  since: Date;
}

interface Channel {
  name: string;
  /** sockets joined or joining: the bus subscription lives while this is above zero */
  refs: number;
  /** open sockets: the fan-out list */
  sockets: Set<Client>;
  /** settles once the bus subscription is live */
  ready: Promise<void>;
  off: (() => Promise<void>) | null;
}

function isLiveMessage(m: unknown): m is { event: string; payload?: unknown } {
  return typeof m === 'object' && m !== null && typeof (m as { event?: unknown }).event === 'string';
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
 * the sockets connected to this process. A bus channel is subscribed while at least one local
 * socket is in it. The socket is server→client only.
 */
export function attachHub(server: Server, deps: HubDeps): Hub {
  const { bus, jwtSecret, log } = deps;
  const heartbeatMs = deps.heartbeatMs ?? HEARTBEAT_MS;
  const maxBuffered = deps.maxBufferedBytes ?? MAX_BUFFERED_BYTES;

  const wss = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    perMessageDeflate: false,
    maxPayload: MAX_INCOMING_BYTES,
  });
  const clients = new Set<Client>();
  const channels = new Map<string, Channel>();
  /** bus unsubscriptions and upgrades under way, awaited by close() */
  const pending = new Set<Promise<unknown>>();
  let closing = false;

  const track = (p: Promise<unknown>) => {
    pending.add(p);
    p.finally(() => pending.delete(p));
  };

  /** One serialisation per message, shared by every socket of the channel. */
  function deliver(channel: Channel, message: unknown): void {
    if (channel.sockets.size === 0) return;
    if (!isLiveMessage(message)) {
      log?.warn({ channel: channel.name }, 'realtime: ignored a bus message without an event');
      return;
    }
    const data = Buffer.from(JSON.stringify({ event: message.event, payload: message.payload ?? {} }));
    for (const client of channel.sockets) {
      const ws = client.ws;
      if (ws.readyState !== WebSocket.OPEN) continue;
      if (ws.bufferedAmount > maxBuffered) {
        if (client.dropped++ === 0) {
          log?.warn({ userId: client.userId, buffered: ws.bufferedAmount }, 'realtime: slow socket, skipping messages');
        }
        continue;
      }
      // a Buffer is framed without a copy; binary: false keeps it a text frame
      ws.send(data, { binary: false });
    }
  }

  function acquire(name: string): Channel {
    let channel = channels.get(name);
    if (!channel) {
      const created: Channel = { name, refs: 0, sockets: new Set(), off: null, ready: Promise.resolve() };
      created.ready = bus
        .subscribe(liveBusChannel(name), (m) => deliver(created, m))
        .then(
          (off) => {
            created.off = off;
          },
          (err) => {
            if (channels.get(name) === created) channels.delete(name);
            throw err;
          },
        );
      channels.set(name, created);
      channel = created;
    }
    channel.refs += 1;
    return channel;
  }

  function release(channel: Channel): void {
    channel.refs -= 1;
    if (channel.refs > 0) return;
    if (channels.get(channel.name) === channel) channels.delete(channel.name);
    track(
      channel.ready
        .then(() => channel.off?.())
        .catch((err) => log?.warn({ err, channel: channel.name }, 'realtime: bus unsubscribe failed')),
    );
  }

  function open(ws: WebSocket, userId: number, joined: Channel[]): void {
    const client: Client = { ws, userId, channels: joined, alive: true, dropped: 0, since: new Date() };
    clients.add(client);
    for (const channel of joined) channel.sockets.add(client);
    ws.on('pong', () => {
      client.alive = true;
    });
    ws.on('message', (data: RawData, isBinary: boolean) => {
      client.alive = true;
      if (!isBinary && String(data) === 'ping') ws.send('pong');
    });
    ws.on('error', (err) => log?.debug({ err, userId }, 'realtime: socket error'));
    ws.once('close', () => {
      clients.delete(client);
      for (const channel of joined) {
        channel.sockets.delete(client);
        release(channel);
      }
      if (client.dropped > 0) log?.warn({ userId, dropped: client.dropped }, 'realtime: slow socket closed');
    });
  }

  async function admit(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL, onError: () => void) {
    const token = url.searchParams.get('token');
    const idParam = url.searchParams.get('id');
    const userId = token ? verifyToken(jwtSecret, token) : null;
    if (userId === null || idParam === null || !/^\d+$/.test(idParam) || Number(idParam) !== userId) {
      return refuse(socket, 401);
    }
    let role: Role | null;
    try {
      role = normalizeRole(await deps.roleOf(userId));
    } catch (err) {
      log?.error({ err, userId }, 'realtime: could not read the role');
      return refuse(socket, 503);
    }
    if (!role) return refuse(socket, 401);
    if (closing || socket.destroyed) return refuse(socket, 503);

    // subscribe before the handshake completes: once the browser sees `open`, nothing is missed
    const joined = channelsFor(userId, role).map(acquire);
    try {
      await Promise.all(joined.map((c) => c.ready));
    } catch (err) {
      log?.error({ err, userId }, 'realtime: bus subscribe failed');
      for (const c of joined) release(c);
      return refuse(socket, 503);
    }
    if (closing || socket.destroyed) {
      for (const c of joined) release(c);
      return refuse(socket, 503);
    }
    socket.off('error', onError);
    let opened = false;
    wss.handleUpgrade(req, socket, head, (ws) => {
      opened = true;
      open(ws, userId, joined);
    });
    // without verifyClient, ws completes (or aborts) the handshake synchronously
    if (!opened) for (const c of joined) release(c);
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
    stats: () => ({ sockets: clients.size, channels: channels.size }),
    inspect: () => ({
      channels: Object.fromEntries([...channels.values()].map((c) => [c.name, c.sockets.size])),
      sockets: [...clients].map((c) => ({
        userId: c.userId,
        channels: c.channels.map((ch) => ch.name),
        since: c.since,
      })),
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
      wss.close();
    },
  };
}
