import { type ConnectionOptions, Queue, Worker } from 'bullmq';
import { JOB_NAMES, type JobMap, type JobName } from './names';
import {
  type AddOptions,
  HandlerTable,
  type JobCounts,
  type JobHandler,
  type JobQueue,
  UnknownJobError,
} from './queue';

export const QUEUE_NAME = 'wa-blaster';

function connection(redisUrl: string): ConnectionOptions {
  // BullMQ workers block on Redis; ioredis must not give up on those commands
  return { url: redisUrl, maxRetriesPerRequest: null } as ConnectionOptions;
}

/** The queue port on BullMQ: any number of `npm run worker` processes take jobs from Redis. */
export class BullmqQueue<M extends object = JobMap> implements JobQueue<M> {
  readonly kind = 'bullmq' as const;
  private readonly handlers: HandlerTable;
  private readonly queue: Queue;
  private worker: Worker | null = null;

  constructor(
    private readonly redisUrl: string,
    private readonly opts: {
      concurrency?: number;
      prefix?: string;
      onError?: (name: string, err: unknown) => void;
      /** the job names of M (JOB_NAMES for the product's JobMap) */
      names?: readonly JobName<M>[];
    } = {},
  ) {
    this.handlers = new HandlerTable(opts.names ?? JOB_NAMES);
    this.queue = new Queue(QUEUE_NAME, { connection: connection(redisUrl), prefix: opts.prefix });
    // without a listener a connection error of the producer would be printed as an unhandled event
    this.queue.on('error', (err) => this.opts.onError?.('queue', err));
  }

  register<N extends JobName<M>>(name: N, handler: JobHandler<M[N]>): void {
    this.handlers.set(name, handler);
  }

  async start(): Promise<void> {
    if (this.worker) return;
    this.handlers.assertComplete();
    this.worker = new Worker(
      QUEUE_NAME,
      async (job) => {
        const handler = this.handlers.get(job.name);
        if (!handler) throw new UnknownJobError(job.name);
        await handler(job.data);
      },
      {
        connection: connection(this.redisUrl),
        prefix: this.opts.prefix,
        concurrency: this.opts.concurrency ?? 50,
      },
    );
    this.worker.on('failed', (job, err) => this.opts.onError?.(job?.name ?? '?', err));
    this.worker.on('error', (err) => this.opts.onError?.('worker', err));
    await this.worker.waitUntilReady();
  }

  async add<N extends JobName<M>>(name: N, payload: M[N], opts: AddOptions = {}): Promise<void> {
    // a producer may not have every handler; it refuses only names no process declared
    if (this.handlers.size && !this.handlers.has(name)) throw new UnknownJobError(name);
    await this.queue.add(name, payload, {
      jobId: opts.jobId,
      delay: opts.delayMs,
      removeOnComplete: 1000,
      removeOnFail: 5000,
    });
  }

  /** the BullMQ queue itself, for the devs' queue dashboard (read-only there) */
  get bullQueue(): Queue {
    return this.queue;
  }

  async counts(): Promise<JobCounts> {
    const c = await this.queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
    return { waiting: c.waiting ?? 0, active: c.active ?? 0, delayed: c.delayed ?? 0, failed: c.failed ?? 0 };
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
  }
}
