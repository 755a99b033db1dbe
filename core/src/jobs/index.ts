import { infraErrorOf } from '../dependencies';
import type { Logger } from '../logger';
import { type EventBus, InProcessBus, RedisBus } from '../realtime/bus';
import { BullmqQueue } from './bullmq-queue';
import { InProcessQueue, type JobQueue } from './queue';

/** The queue and bus for a configuration: Redis-backed with REDIS_URL, in-process without. */
export function createInfra(redisUrl: string | null, log: Logger, prefix = 'wa'): { queue: JobQueue; bus: EventBus } {
  const connection = onceAMinute(log);
  const onError = (name: string, err: unknown) => {
    // the queue's own connection errors repeat at every reconnect attempt: said once a minute
    if ((name === 'worker' || name === 'queue') && infraErrorOf(err)) connection(err);
    else log.error({ err, job: name }, 'job failed');
  };
  if (redisUrl) {
    return { queue: new BullmqQueue(redisUrl, { onError, prefix }), bus: new RedisBus(redisUrl, `${prefix}:`) };
  }
  return { queue: new InProcessQueue(onError), bus: new InProcessBus() };
}

/** Logs a repeating connection error once, then at most once a minute with how many came meanwhile. */
function onceAMinute(log: Logger): (err: unknown) => void {
  let last = 0;
  let since = 0;
  return (err) => {
    since += 1;
    if (Date.now() - last < 60_000) return;
    log.error({ err, times: since }, 'job queue cannot reach Redis');
    last = Date.now();
    since = 0;
  };
}
