import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MonitorLocal, MonitorRemote, MonitorSocket } from '@wa/shared';
import { sql } from 'drizzle-orm';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createLogger } from '../../core/src/logger';
import { createApp } from '../../server/src/app';
import { UsersRepo } from '../../server/src/modules/users/users.repo';
import { attachHub, type Hub } from '../../server/src/realtime/hub';
import { bearer } from '../support/api';
import { createUser, TEST_JWT_SECRET, type TestUser } from '../support/factories';
import { connectAccount, newDeviceId, startWaHarness, type WaHarness } from '../support/wa-engine';

process.env.SIM_PAIR_DELAY_MS = '150';
process.env.SIM_RESTORE_DELAY_MS = '20';

let h: WaHarness;
/** the API as main.ts builds it in embedded mode: it runs the engine and the hub */
let app: Express;
/** an API that runs neither (as in scale-out, or a bare test app) */
let bare: Express;
let server: Server;
let hub: Hub;
let base: string;
let dev: TestUser;
let admin: TestUser;
let member: TestUser;
let staff: TestUser;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  h = await startWaHarness();
  const deps = {
    db: h.database.db,
    jwtSecret: TEST_JWT_SECRET,
    logger: createLogger('silent'),
    dataDir: h.dataDir,
    bus: h.bus,
    queue: h.queue,
  };
  app = createApp({
    ...deps,
    monitor: {
      engine: () => ({ workerId: h.engine.host.workerId, sessions: h.engine.host.states() }),
      hub: () => hub.inspect(),
    },
  });
  bare = createApp(deps);
  server = createServer(app);
  const users = new UsersRepo(h.database.db);
  hub = attachHub(server, {
    bus: h.bus,
    jwtSecret: TEST_JWT_SECRET,
    authState: (id) => users.authState(id),
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  [dev, admin, member, staff] = await Promise.all(
    (['dev', 'admin', 'member', 'staff'] as const).map((role) => createUser(h.database.db, { role })),
  );
});

afterAll(async () => {
  for (const ws of sockets) ws.terminate();
  await hub?.close();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await h?.close();
});

const get = (path: string, u?: TestUser, on: Express = app) => {
  const req = request(on).get(`/api/dev/monitor${path}`);
  return u ? req.set(bearer(u.token)) : req;
};

/** Opens a realtime socket for a user, as the dashboard does. */
function openSocket(u: TestUser): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base}/ws?id=${u.id}&token=${encodeURIComponent(u.token)}`);
    sockets.push(ws);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** Closes the sockets and waits until the hub has let go of every socket. */
async function closeSockets(...list: WebSocket[]) {
  await Promise.all(
    list.map((ws) => {
      const closed = new Promise((r) => ws.once('close', r));
      ws.close();
      return closed;
    }),
  );
  await expect.poll(() => hub.inspect().sockets.length).toBe(0);
}

describe('who may read the monitor', () => {
  const paths = ['/local', `/remote?id=${newDeviceId()}`, '/socket?id=1'];

  it('asks for a token', async () => {
    for (const p of paths) {
      const res = await get(p);
      expect(res.status, p).toBe(401);
      expect(res.body).toEqual({ msg: 'Authorization token is missing' });
    }
  });

  it('refuses admin, staff and member with 403 and a message', async () => {
    for (const u of [admin, staff, member]) {
      for (const p of paths) {
        const res = await get(p, u);
        expect(res.status, `${u.role} ${p}`).toBe(403);
        expect(typeof res.body.msg).toBe('string');
        expect(res.body.data).toBeUndefined();
      }
    }
  });
});

describe('GET /dev/monitor/local', () => {
  it("shows this process, its engine's sessions, its sockets per channel and the bus", async () => {
    const { deviceId } = await connectAccount(h, member);
    const ws = await openSocket(dev);
    const res = await get('/local', dev);
    expect(res.status).toBe(200);
    const data = res.body.data as MonitorLocal;
    expect(data.process.node).toBe(process.version);
    expect(data.process.pid).toBe(process.pid);
    expect(data.process.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(data.memoryMb.rss).toBeGreaterThan(0);
    expect(data.memoryMb.heapUsed).toBeGreaterThan(0);
    expect(data.bus).toBe('memory');
    expect(data.queue).toBe('memory');
    expect(data.engine).toMatchObject({ embedded: true, workerId: h.engine.host.workerId });
    if (!data.engine.embedded) throw new Error('expected the embedded engine');
    expect(data.engine.sessions[deviceId]).toBe('connected');
    expect(data.engine.size).toBe(Object.keys(data.engine.sessions).length);
    expect(data.hub).toEqual({ sockets: 1, channels: { [`client-${dev.id}`]: 1, 'client-admin': 1 } });
    await closeSockets(ws);
  });

  it('says the workers hold the sessions when this process runs no engine, and that it has no hub', async () => {
    const res = await get('/local', dev, bare);
    expect(res.status).toBe(200);
    const data = res.body.data as MonitorLocal;
    expect(data.engine.embedded).toBe(false);
    expect(data.engine).toHaveProperty('note');
    expect(data.hub).toHaveProperty('note');
    expect(data.process.node).toBe(process.version);
  });
});

describe('GET /dev/monitor/remote?id', () => {
  it("asks the device's holder and shows its answer with the account row", async () => {
    const { deviceId, info, account } = await connectAccount(h, member);
    const res = await get(`/remote?id=${deviceId}`, dev);
    expect(res.status).toBe(200);
    const data = res.body.data as MonitorRemote;
    expect(data.deviceId).toBe(deviceId);
    expect(data.holder).toMatchObject({ workerId: h.engine.host.workerId, state: 'connected' });
    expect(data.holder?.info).toMatchObject({ phonenumber: info.phonenumber });
    expect(data.account).toMatchObject({
      id: account.id,
      clientid: deviceId,
      user_id: member.id,
      state: 'connected',
      status: 'idle',
      worker_id: h.engine.host.workerId,
      lease_active: true,
      count_success: 0,
      count_fail: 0,
      suspended_count: 0,
    });
    expect(Date.parse(data.account?.lease_until ?? '')).toBeGreaterThan(Date.now());
  });

  it('shows a device no worker holds with holder null, not as an error', async () => {
    const deviceId = newDeviceId();
    await h.database.db.execute(sql`
      insert into whatsapp_accounts (clientid, user_id, state, status, count_success, count_fail)
      values (${deviceId}, ${member.id}, 'disconnected', 'idle', 4, 2)`);
    const res = await get(`/remote?id=${deviceId}`, dev);
    expect(res.status).toBe(200);
    const data = res.body.data as MonitorRemote;
    expect(data.holder).toBeNull();
    expect(data.account).toMatchObject({
      clientid: deviceId,
      state: 'disconnected',
      worker_id: null,
      lease_until: null,
      lease_active: false,
      count_success: 4,
      count_fail: 2,
    });
  });

  it('answers 404 for a device nobody knows and 400 for an id that is not a client id', async () => {
    const unknown = await get(`/remote?id=${newDeviceId()}`, dev);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ msg: 'WhatsApp account not found.' });
    for (const p of ['/remote', '/remote?id=', '/remote?id=abc', '/remote?id=12']) {
      const res = await get(p, dev);
      expect(res.status, p).toBe(400);
      expect(typeof res.body.msg).toBe('string');
    }
  });
});

describe('GET /dev/monitor/socket?id', () => {
  it("shows the user's sockets on this process: count, channels and since when", async () => {
    const before = Date.now();
    const [a, b] = await Promise.all([openSocket(member), openSocket(member)]);
    const res = await get(`/socket?id=${member.id}`, dev);
    expect(res.status).toBe(200);
    const data = res.body.data as MonitorSocket;
    expect(data).toMatchObject({ userId: member.id, count: 2, channels: [`client-${member.id}`] });
    expect(data.user).toMatchObject({ id: member.id, email: member.email, role: 'member' });
    expect(data.sockets).toHaveLength(2);
    for (const s of data.sockets) {
      expect(s.channels).toEqual([`client-${member.id}`]);
      expect(Date.parse(s.connectedSince)).toBeGreaterThanOrEqual(before - 1000);
    }
    // another user's sockets are not theirs
    const mine = await get(`/socket?id=${dev.id}`, dev);
    expect(mine.body.data).toMatchObject({ userId: dev.id, count: 0, channels: [], sockets: [] });
    await closeSockets(a, b);
    const after = await get(`/socket?id=${member.id}`, dev);
    expect(after.body.data.count).toBe(0);
  });

  it('answers 400 for a bad id and 404 for a user that does not exist', async () => {
    for (const p of ['/socket', '/socket?id=', '/socket?id=x', '/socket?id=0', '/socket?id=1.5']) {
      const res = await get(p, dev);
      expect(res.status, p).toBe(400);
      expect(typeof res.body.msg).toBe('string');
    }
    const res = await get('/socket?id=999999', dev);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ msg: 'User not found' });
  });
});
