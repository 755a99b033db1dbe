import type { Logger } from '../logger';
import { type EventBus, InProcessBus, RedisBus } from '../realtime/bus';
import { BullmqQueue } from './bullmq-queue';
import { InProcessQueue, type JobQueue } from './queue';

/** The queue and bus for a configuration: Redis-backed with REDIS_URL, in-process without. */
export function createInfra(redisUrl: string | null, log: Logger, prefix = 'wa'): { queue: JobQueue; bus: EventBus } {
  const onError = (name: string, err: unknown) => log.error({ err, job: name }, 'job failed');
  if (redisUrl) {
    return { queue: new BullmqQueue(redisUrl, { onError, prefix }), bus: new RedisBus(redisUrl, `${prefix}:`) };
  }
  return { queue: new InProcessQueue(onError), bus: new InProcessBus() };
}
