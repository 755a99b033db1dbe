import { JOB_NAMES, type JobMap, type JobName } from './names';

/** A job handler: gets the payload, returns when the work is done (throwing marks it failed). */
export type JobHandler<P> = (payload: P) => Promise<void>;

export interface AddOptions {
  /** a job with the same id that is still waiting or running is not added twice */
  jobId?: string;
  delayMs?: number;
}

/**
 * The queue port: BullMQ on Redis when REDIS_URL is set, else an in-process runner with the same
 * handlers. Typed by a job map (JobMap: name → payload), so a producer and a handler cannot
 * disagree on a payload. Handlers are registered before `start`, which refuses to begin while a
 * job of the map has no handler; adding a job whose name has no handler is refused, so a typo
 * cannot park jobs forever.
 */
export interface JobQueue<M extends object = JobMap> {
  readonly kind: 'memory' | 'bullmq';
  register<N extends JobName<M>>(name: N, handler: JobHandler<M[N]>): void;
  /** begin taking jobs (a producer-only process never calls it); throws MissingHandlerError */
  start(): Promise<void>;
  add<N extends JobName<M>>(name: N, payload: M[N], opts?: AddOptions): Promise<void>;
  /** jobs by state right now (the /metrics queue depths) */
  counts(): Promise<JobCounts>;
  close(): Promise<void>;
}

/** How many jobs wait, run, wait for their delay, or failed (and are kept). */
export interface JobCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

export class UnknownJobError extends Error {
  constructor(name: string) {
    super(`no handler is registered for job "${name}"`);
  }
}

export class MissingHandlerError extends Error {
  constructor(names: readonly string[]) {
    super(`the queue cannot start: no handler is registered for ${names.map((n) => `"${n}"`).join(', ')}`);
    this.name = 'MissingHandlerError';
  }
}

/**
 * What both adapters keep: the handlers by name and the start check. The names come with the
 * queue (JOB_NAMES unless a test brings its own map), since a type map has no names at run time.
 */
export class HandlerTable {
  private readonly handlers = new Map<string, JobHandler<unknown>>();

  constructor(private readonly names: readonly string[]) {}

  get size(): number {
    return this.handlers.size;
  }

  set<P>(name: string, handler: JobHandler<P>): void {
    this.handlers.set(name, handler as JobHandler<unknown>);
  }

  get(name: string): JobHandler<unknown> | undefined {
    return this.handlers.get(name);
  }

  has(name: string): boolean {
    return this.handlers.has(name);
  }

  /** Throws unless every job name has its handler (Immich's job repository does the same at setup). */
  assertComplete(): void {
    const missing = this.names.filter((n) => !this.handlers.has(n));
    if (missing.length) throw new MissingHandlerError(missing);
  }
}

/** Runs jobs in this process, one after another per name, after the current tick. */
export class InProcessQueue<M extends object = JobMap> implements JobQueue<M> {
  readonly kind = 'memory' as const;
  private readonly handlers: HandlerTable;
  private readonly pending = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private running = false;
  private closed = false;
  private active = 0;
  private failed = 0;

  constructor(
    private readonly onError: (name: string, err: unknown) => void = () => {},
    names: readonly JobName<M>[] | null = null,
  ) {
    this.handlers = new HandlerTable(names ?? JOB_NAMES);
  }

  register<N extends JobName<M>>(name: N, handler: JobHandler<M[N]>): void {
    this.handlers.set(name, handler);
  }

  async start(): Promise<void> {
    this.handlers.assertComplete();
    this.running = true;
  }

  async counts(): Promise<JobCounts> {
    return { waiting: this.timers.size, active: this.active, delayed: 0, failed: this.failed };
  }

  async add<N extends JobName<M>>(name: N, payload: M[N], opts: AddOptions = {}): Promise<void> {
    if (this.closed) throw new Error('queue is closed');
    const handler = this.handlers.get(name);
    if (!handler) throw new UnknownJobError(name);
    const key = opts.jobId ? `${name}:${opts.jobId}` : null;
    if (key && this.pending.has(key)) return;
    if (key) this.pending.add(key);
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (!this.running || this.closed) {
          if (key) this.pending.delete(key);
          return;
        }
        this.active += 1;
        handler(payload)
          .catch((err) => {
            this.failed += 1;
            this.onError(name, err);
          })
          .finally(() => {
            this.active -= 1;
            if (key) this.pending.delete(key);
          });
      },
      Math.max(0, opts.delayMs ?? 0),
    );
    this.timers.add(timer);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
