import type { Db } from '@wa/core/db/client';
import {
  JOB_NAMES,
  type JobMap,
  type JobName,
  OPEN_SESSION_JOB,
  SEND_MESSAGE_JOB,
  WEBHOOK_JOB,
} from '@wa/core/jobs/names';
import type { JobHandler, JobQueue } from '@wa/core/jobs/queue';
import type { Logger } from '@wa/core/logger';
import type { EventBus } from '@wa/core/realtime/bus';
import { type DeliverySettings, runDeliveryJob } from '@wa/core/webhooks/deliver';
import type { SessionHost } from '../engine/host';
import { handleOpenSession } from './open-session.job';
import { handleSendMessage } from './send-message.job';

export interface JobContext {
  db: Db;
  bus: EventBus;
  log: Logger;
  host: SessionHost;
  /** how webhook deliveries are made and retried (config `webhooks`) */
  webhookDelivery: DeliverySettings;
}

/** Every job's handler by name: a job added to JobMap without its handler here does not compile. */
type JobHandlers = { [N in JobName]: JobHandler<JobMap[N]> };

function jobHandlers(queue: JobQueue, ctx: JobContext): JobHandlers {
  return {
    [OPEN_SESSION_JOB]: (job) => handleOpenSession(queue, ctx.host, job),
    [SEND_MESSAGE_JOB]: (job) => handleSendMessage(ctx, job),
    [WEBHOOK_JOB]: async (job) => {
      await runDeliveryJob(ctx.db, queue, job.deliveryId, ctx.webhookDelivery);
    },
  };
}

/** Registers every job handler of the product on a queue and returns their names. */
export function registerJobs(queue: JobQueue, ctx: JobContext): string[] {
  const handlers = jobHandlers(queue, ctx);
  const register = <N extends JobName>(name: N) => queue.register(name, handlers[name]);
  for (const name of JOB_NAMES) register(name);
  return [...JOB_NAMES];
}
