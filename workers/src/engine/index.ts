import type { Config } from '@wa/core/config';
import type { Db } from '@wa/core/db/client';
import type { JobQueue } from '@wa/core/jobs/queue';
import type { Logger } from '@wa/core/logger';
import type { EventBus } from '@wa/core/realtime/bus';
import { createDriver } from '../drivers/index';
import { DbSessionStore } from '../drivers/session-store';
import type { WhatsAppDriver } from '../drivers/types';
import { registerJobs } from '../jobs/registry';
import { SessionHost } from './host';

export interface Engine {
  host: SessionHost;
  driver: WhatsAppDriver;
  jobs: string[];
  close(): Promise<void>;
}

/**
 * The WhatsApp engine of one process: the driver `WA_DRIVER` selects, a session host that holds
 * accounts under leases, and the job handlers on the queue. A worker process runs one; without
 * REDIS_URL the API process runs one itself (embedded mode). The caller starts the queue.
 */
export async function startEngine(opts: {
  config: Pick<Config, 'waDriver' | 'dataDir' | 'chromePath'>;
  db: Db;
  queue: JobQueue;
  bus: EventBus;
  log: Logger;
  leaseMs?: number;
  sweepMs?: number;
  /** the only engine there is (no Redis): take every account at start */
  exclusive?: boolean;
  /** milliseconds in one second of a blast interval (WA_BLAST_SECOND_MS; tests shorten it) */
  blastSecondMs?: number;
  /** how long an unsaved login lives past its code or scan (WA_LOGIN_TTL_MS; 120 s) */
  pendingTtlMs?: number;
  /** unsaved logins this worker runs at once (WA_WORKER_MAX_LOGINS; 20) */
  maxPendingLogins?: number;
}): Promise<Engine> {
  const store = new DbSessionStore(opts.db);
  const driver = await createDriver(opts.config, store);
  const host = new SessionHost({
    db: opts.db,
    bus: opts.bus,
    driver,
    store,
    log: opts.log,
    leaseMs: opts.leaseMs ?? envMs('WA_LEASE_MS'),
    sweepMs: opts.sweepMs ?? envMs('WA_SWEEP_MS'),
    exclusive: opts.exclusive,
    dataDir: opts.config.dataDir,
    blastSecondMs: opts.blastSecondMs ?? envMs('WA_BLAST_SECOND_MS'),
    pendingTtlMs: opts.pendingTtlMs ?? envMs('WA_LOGIN_TTL_MS'),
    maxPendingLogins: opts.maxPendingLogins ?? envCount('WA_WORKER_MAX_LOGINS'),
  });
  const jobs = registerJobs(opts.queue, { db: opts.db, bus: opts.bus, log: opts.log, host });
  await host.start();
  opts.log.info({ driver: driver.name, workerId: host.workerId }, 'engine ready');
  return {
    host,
    driver,
    jobs,
    close: async () => {
      await host.stop();
      await driver.close();
    },
  };
}

function envCount(name: string): number | undefined {
  const n = envMs(name);
  return n === undefined ? undefined : Math.floor(n);
}

function envMs(name: string): number | undefined {
  const v = process.env[name];
  if (!v) return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}
