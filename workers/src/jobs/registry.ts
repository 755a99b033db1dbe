import type { Db } from '@wa/server/db/client';
import type { JobQueue } from '@wa/server/jobs/queue';
import type { Logger } from '@wa/server/logger';
import type { EventBus } from '@wa/server/realtime/bus';
import { OPEN_SESSION_JOB, type OpenSessionJob, type SessionHost } from '../engine/host';

export interface JobContext {
  db: Db;
  bus: EventBus;
  log: Logger;
  host: SessionHost;
}

/** Registers every job handler of the product on a queue and returns their names. */
export function registerJobs(queue: JobQueue, ctx: JobContext): string[] {
  queue.register<OpenSessionJob>(OPEN_SESSION_JOB, (job) => ctx.host.open(job));
  return [OPEN_SESSION_JOB];
}
