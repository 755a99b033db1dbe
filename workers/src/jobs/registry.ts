import type { Db } from '@wa/core/db/client';
import { OPEN_SESSION_JOB, type OpenSessionJob, SEND_MESSAGE_JOB, type SendMessageJob } from '@wa/core/jobs/names';
import type { JobQueue } from '@wa/core/jobs/queue';
import type { Logger } from '@wa/core/logger';
import type { EventBus } from '@wa/core/realtime/bus';
import type { SessionHost } from '../engine/host';
import { handleOpenSession } from './open-session.job';
import { handleSendMessage } from './send-message.job';

export interface JobContext {
  db: Db;
  bus: EventBus;
  log: Logger;
  host: SessionHost;
}

/** Registers every job handler of the product on a queue and returns their names. */
export function registerJobs(queue: JobQueue, ctx: JobContext): string[] {
  queue.register<OpenSessionJob>(OPEN_SESSION_JOB, (job) => handleOpenSession(queue, ctx.host, job));
  queue.register<SendMessageJob>(SEND_MESSAGE_JOB, (job) => handleSendMessage(ctx, job));
  return [OPEN_SESSION_JOB, SEND_MESSAGE_JOB];
}
