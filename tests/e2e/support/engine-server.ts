import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InProcessQueue } from '../../../core/src/jobs/queue';
import { createLogger } from '../../../core/src/logger';
import { InProcessBus } from '../../../core/src/realtime/bus';
import { createApp } from '../../../server/src/app';
import { UsersRepo } from '../../../server/src/modules/users/users.repo';
import { attachHub } from '../../../server/src/realtime/hub';
import type { SimDriver } from '../../../workers/src/drivers/sim';
import { type Engine, startEngine } from '../../../workers/src/engine/index';
import { createTestDatabase } from '../../support/db';
import { createUser, TEST_JWT_SECRET } from '../../support/factories';
import { type TestServer, WEB_DIST } from '../../support/server';

export interface EngineTestServer extends TestServer {
  engine: Engine;
  bus: InProcessBus;
  /** the simulated WhatsApp: `sim().control(clientId).disconnect()` and friends */
  sim(): SimDriver;
}

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
    config: { waDriver: 'sim', dataDir, chromePath: '/usr/bin/chromium' },
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
    engine,
    bus,
    sim: () => engine.driver as SimDriver,
    createUser: (input) => createUser(database.db, input),
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
