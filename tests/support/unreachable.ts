import { connect, createServer, type Socket } from 'node:net';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from '../../core/src/db/client';
import * as schema from '../../core/src/db/schema/index';

/**
 * A dependency that is there and does not answer: a TCP server on 127.0.0.1 that accepts every
 * connection and never writes a byte, as a host whose service hangs (or a firewall that swallows
 * the packets after the handshake) looks to a client.
 */
export interface BlackHole {
  port: number;
  /** connections accepted so far */
  accepted(): number;
  /** drops every connection (the clients see them reset) and stops listening */
  close(): Promise<void>;
}

export async function blackHole(): Promise<BlackHole> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    accepted: () => accepted,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export { closedPort } from '../../core/src/testing/ports';

/**
 * A database handle on PostgreSQL at 127.0.0.1:`port`, made as openDatabase makes it but without
 * its migrations (which would wait on a server that never answers); `end` closes the pool.
 */
export function postgresAt(port: number): { db: Db; end(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`, max: 10 });
  pool.on('error', () => {});
  // the same widening openDatabase does: repositories take the driver-neutral Db
  const db = drizzle(pool, { schema }) as unknown as Db;
  return { db, end: () => pool.end() };
}

/**
 * A TCP relay on 127.0.0.1 in front of `target` that can be cut: `cut()` resets every relayed
 * connection and stops listening (the service is gone, connects are refused), `restore()` listens
 * on the same port again. What a client sees when its server restarts or its network drops.
 */
export interface CuttableRelay {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function cuttableRelay(target: { host: string; port: number }): Promise<CuttableRelay> {
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => sockets.delete(s));
  };
  const server = createServer((client) => {
    track(client);
    const upstream = connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const port = address.port;
  const cut = async () => {
    if (!server.listening) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of sockets) s.destroy();
    await closed;
  };
  return { port, cut, restore: () => (server.listening ? Promise.resolve() : listen(port)), close: cut };
}
