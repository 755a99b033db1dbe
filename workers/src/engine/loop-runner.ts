import type { Logger } from '@wa/core/logger';

/**
 * A loop an account's holder runs for it (a blast, a generator, a validator): started and stopped
 * from requests, stopped between two steps (a step in flight is never cut in half), with waits that
 * a stop cuts short. The subclass's `run` reads its switch from the database before every step.
 */
export abstract class LoopRunner {
  private running: Promise<void> | null = null;
  protected stopping = false;
  private again = false;
  private wake: (() => void) | null = null;

  protected constructor(
    private readonly log: Logger,
    private readonly what: Record<string, unknown>,
  ) {}

  protected abstract run(): Promise<void>;

  get active(): boolean {
    return this.running !== null;
  }

  /** Starts the loop unless it runs already (a start right after a stop runs it again). */
  start(): void {
    this.stopping = false;
    if (this.running) {
      this.again = true;
      return;
    }
    this.again = false;
    this.running = this.run()
      .catch((err) => this.log.error({ err, ...this.what }, 'loop failed'))
      .finally(() => {
        this.running = null;
        if (this.again && !this.stopping) this.start();
      });
  }

  /** Stops after the step in flight and resolves once it has; waits at most `graceMs` for it. */
  async stop(graceMs = 15_000): Promise<void> {
    this.stopping = true;
    this.wake?.();
    const running = this.running;
    if (!running) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([running, new Promise<void>((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
  }

  /** Waits `ms`, or less when stopped. */
  protected sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }
}
