import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../core/src/config';
import { InProcessQueue } from '../../../core/src/jobs/queue';
import { createLogger } from '../../../core/src/logger';
import { InProcessBus } from '../../../core/src/realtime/bus';
import { createApp } from '../../../server/src/app';
import { UsersRepo } from '../../../server/src/modules/users/users.repo';
import { attachHub } from '../../../server/src/realtime/hub';
import type { SimDriver } from '../../../workers/src/drivers/sim';
import { type Engine, startEngine } from '../../../workers/src/engine/index';
import { createTestDatabase } from '../../support/db';
import { createUser, TEST_JWT_SECRET, type TestUser } from '../../support/factories';
import { type TestServer, WEB_DIST } from '../../support/server';

export interface EngineTestServer extends TestServer {
  engine: Engine;
  bus: InProcessBus;
  /** the simulated WhatsApp: `sim().control(clientId).disconnect()` and friends */
  sim(): SimDriver;
  /** a JSON call to `/api{path}` as `user`; throws on a non-2xx answer */
  api<T = unknown>(user: TestUser, method: string, path: string, body?: unknown): Promise<T>;
  /** connects a simulated account for `user` the way the create screen does; the saved account */
  connect(user: TestUser): Promise<{ id: number; clientid: string; phonenumber: string }>;
}

let devices = 0;

/**
 * What tests/support/server.ts starts, plus the WhatsApp engine on the simulator (in-process bus
 * and queue, as in embedded mode) and the realtime hub on `/ws`, so the dashboard's QR login,
 * pairing code and live row updates run end to end.
 */
export async function startEngineTestServer(
  opts: { pairDelayMs?: number; qrTimeoutMs?: number } = {},
): Promise<EngineTestServer> {
  // the simulated phone scans after this delay; sends always succeed, quickly
  process.env.SIM_PAIR_DELAY_MS = String(opts.pairDelayMs ?? 1500);
  process.env.SIM_RESTORE_DELAY_MS = '20';
  process.env.SIM_SEND_LATENCY_MS = '0';
  process.env.SIM_SEND_FAIL_RATE = '0';

  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wa-e2e-engine-'));
  const log = createLogger('silent');
  const bus = new InProcessBus();
  const queue = new InProcessQueue();
  const engine = await startEngine({
    config: { waDriver: 'sim', dataDir, chromePath: '/usr/bin/chromium', sim: loadConfig().sim },
    db: database.db,
    queue,
    bus,
    log,
  });
  await queue.start();
  const app = createApp({
    dataDir,
    db: database.db,
    jwtSecret: TEST_JWT_SECRET,
    logger: log,
    webDist: WEB_DIST,
    bus,
    queue,
    qrTimeoutMs: opts.qrTimeoutMs,
    // what main.ts passes in embedded mode; the hub is attached below, before any request
    monitor: {
      engine: () => ({ workerId: engine.host.workerId, sessions: engine.host.states() }),
      hub: () => hub.inspect(),
      simulator: true,
    },
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const usersRepo = new UsersRepo(database.db);
  const hub = attachHub(server, {
    bus,
    jwtSecret: TEST_JWT_SECRET,
    authState: (id) => usersRepo.authState(id),
    log,
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    db: database.db,
    dataDir,
    engine,
    bus,
    sim: () => engine.driver as SimDriver,
    createUser: (input) => createUser(database.db, input),
    api: (user, method, apiPath, body) => callApi(`http://127.0.0.1:${port}`, user, method, apiPath, body),
    connect: async (user) => {
      const url = `http://127.0.0.1:${port}`;
      const deviceId = `id-${Date.now()}-${(devices++ % 900) + 100}`;
      let off: (() => Promise<void>) | undefined;
      const authenticated = new Promise<Record<string, unknown>>((resolve) => {
        void bus
          .subscribe(`ws:client-${user.id}`, (m) => {
            const msg = m as { event: string; payload: Record<string, unknown> };
            if (msg.event === 'authenticated' && msg.payload.deviceId === deviceId) resolve(msg.payload);
          })
          .then((u) => {
            off = u;
          });
      });
      const created = await callApi<{ proxyId: number | null }>(url, user, 'POST', '/admin/whatsapp/new-client', {
        deviceId,
        userId: user.id,
      });
      await callApi(url, user, 'GET', `/admin/whatsapp/qr-new-client/${deviceId}`);
      const { clientInfo } = await authenticated;
      await off?.();
      const saved = await callApi<{ whatsapp: { id: number; clientid: string; phonenumber: string } }>(
        url,
        user,
        'POST',
        '/admin/whatsapp/save',
        { clientid: deviceId, ...(clientInfo as object), proxyId: created.proxyId, user_id: user.id },
      );
      return saved.whatsapp;
    },
    close: async () => {
      await hub.close().catch(() => {});
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await engine.close().catch(() => {});
      await queue.close().catch(() => {});
      await bus.close().catch(() => {});
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function callApi<T>(url: string, user: TestUser, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${url}/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
