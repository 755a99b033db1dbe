import path from 'node:path';
import type { Config } from '@wa/core/config';
import { openDatabase } from '@wa/core/db/client';
import { untilReachable } from '@wa/core/dependencies';
import { createInfra } from '@wa/core/jobs/index';
import type { Logger } from '@wa/core/logger';
import type { EventBus } from '@wa/core/realtime/bus';
import { startEngine } from './engine/index';
import { serveWorkerMetrics } from './metrics-server';

export interface RunningWorker {
  /** the bus the worker publishes on (its process-wide failures go to admins over it too) */
  bus: EventBus;
  close(): Promise<void>;
}

/**
 * Starts a worker: opens the database (migrating it if this process is first), registers every
 * job handler on the queue and starts taking jobs from Redis.
 */
export async function startWorker(config: Config, log: Logger): Promise<RunningWorker> {
  if (!config.redisUrl) {
    throw new Error(
      'REDIS_URL is not set: without Redis, jobs run inside the API process (npm start) and a separate worker has nothing to take.',
    );
  }
  // a database still starting (docker compose brings them up together) is waited for, not a crash
  const database = await untilReachable(
    'database',
    () => openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') }),
    log,
  );
  const { queue, bus } = createInfra(config.redisUrl, log, config.redisPrefix);
  const engine = await startEngine({ config, db: database.db, queue, bus, log });
  await queue.start();
  const metrics =
    config.workerMetricsPort !== null && config.metricsToken
      ? await serveWorkerMetrics(engine.metrics.registry, {
          port: config.workerMetricsPort,
          token: config.metricsToken,
        })
      : null;
  log.info(
    { jobs: engine.jobs, database: database.kind, workerId: engine.host.workerId, metricsPort: metrics?.port ?? null },
    'worker ready',
  );
  return {
    bus,
    close: async () => {
      await metrics?.close();
      // BullMQ's close waits for the jobs in flight to finish; then the sessions are let go
      await queue.close();
      await engine.close();
      await bus.close();
      await database.close();
    },
  };
}
