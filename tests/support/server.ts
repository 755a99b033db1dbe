import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Db } from '../../core/src/db/client';
import { type JobMap, WEBHOOK_JOB } from '../../core/src/jobs/names';
import { InProcessQueue } from '../../core/src/jobs/queue';
import { createLogger } from '../../core/src/logger';
import { DEFAULT_DELIVERY_SETTINGS, runDeliveryJob } from '../../core/src/webhooks/deliver';
import { createApp } from '../../server/src/app';
import { createTestDatabase } from './db';
import { createUser, TEST_JWT_SECRET, type TestUser, type UserInput } from './factories';

export const WEB_DIST = path.resolve(import.meta.dirname, '../../web/dist');

export interface TestServer {
  url: string;
  db: Db;
  /** the server's DATA_DIR (uploads, the imports' temp files under tmp/) */
  dataDir: string;
  createUser(input: UserInput): Promise<TestUser>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** run `webhook.deliver` jobs in the process, as an embedded engine does (no WhatsApp engine here) */
  deliverWebhooks?: boolean;
}

/** The real API on a random port with a fresh database, serving the built dashboard. */
export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wa-e2e-'));
  let queue: InProcessQueue<JobMap> | undefined;
  if (opts.deliverWebhooks) {
    const jobs = new InProcessQueue<JobMap>(() => {}, [WEBHOOK_JOB]);
    const settings = { ...DEFAULT_DELIVERY_SETTINGS, timeoutMs: 3000 };
    jobs.register(WEBHOOK_JOB, async ({ deliveryId }) => {
      await runDeliveryJob(database.db, jobs, deliveryId, settings);
    });
    await jobs.start();
    queue = jobs;
  }
  const app = createApp({
    dataDir,
    db: database.db,
    jwtSecret: TEST_JWT_SECRET,
    logger: createLogger('silent'),
    webDist: WEB_DIST,
    queue,
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    db: database.db,
    dataDir,
    createUser: (input) => createUser(database.db, input),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue?.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * startTestServer for the file it is called in: started in beforeAll, closed in afterAll. The
 * object is returned at once and filled in by the hook, so a suite can name it at module level.
 */
export function useTestServer(opts: TestServerOptions = {}): TestServer {
  const server = {} as TestServer;
  beforeAll(async () => {
    Object.assign(server, await startTestServer(opts));
  });
  afterAll(async () => {
    await server.close?.();
  });
  return server;
}
