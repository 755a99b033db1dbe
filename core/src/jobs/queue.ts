/** A job handler: gets the payload, returns when the work is done (throwing marks it failed). */
export type JobHandler<P = unknown> = (payload: P) => Promise<void>;

export interface AddOptions {
  /** a job with the same id that is still waiting or running is not added twice */
  jobId?: string;
  delayMs?: number;
}

/**
 * The queue port: BullMQ on Redis when REDIS_URL is set, else an in-process runner with the same
 * handlers. Handlers are registered before `start`; adding a job whose name has no handler is
 * refused, so a typo cannot park jobs forever.
 */
export interface JobQueue {
  readonly kind: 'memory' | 'bullmq';
  register<P>(name: string, handler: JobHandler<P>): void;
  /** begin taking jobs (a producer-only process never calls it) */
  start(): Promise<void>;
  add<P>(name: string, payload: P, opts?: AddOptions): Promise<void>;
  close(): Promise<void>;
}

export class UnknownJobError extends Error {
  constructor(name: string) {
    super(`no handler is registered for job "${name}"`);
  }
}

/** Runs jobs in this process, one after another per name, after the current tick. */
export class InProcessQueue implements JobQueue {
  readonly kind = 'memory' as const;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly pending = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private running = false;
  private closed = false;

  constructor(private readonly onError: (name: string, err: unknown) => void = () => {}) {}

  register<P>(name: string, handler: JobHandler<P>): void {
    this.handlers.set(name, handler as JobHandler);
  }

  async start(): Promise<void> {
    this.running = true;
  }

  async add<P>(name: string, payload: P, opts: AddOptions = {}): Promise<void> {
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
        handler(payload)
          .catch((err) => this.onError(name, err))
          .finally(() => {
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
