import type { Db } from '@wa/server/db/client';
import type { JobQueue } from '@wa/server/jobs/queue';
import type { Logger } from '@wa/server/logger';
import type { EventBus } from '@wa/server/realtime/bus';

export interface JobContext {
  db: Db;
  bus: EventBus;
  log: Logger;
}

/**
 * Registers every job handler of the product on a queue and returns their names. The engine
 * issue adds the session, blast, generate and validate jobs here; until then a worker idles.
 */
export function registerJobs(_queue: JobQueue, _ctx: JobContext): string[] {
  return [];
}
