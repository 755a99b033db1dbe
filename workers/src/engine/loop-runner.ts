import { type Dependency, type DependencyMonitor, errorText } from '@wa/core/dependencies';
import type { Logger } from '@wa/core/logger';

/** The longest pause between two tries of a loop whose dependency answers probes but still fails it. */
const RETRY_CAP_MS = 5000;

/** A run that lasted this long before failing counts as a new outage: the backoff starts again. */
const FRESH_AFTER_MS = 30_000;

/**
 * A loop an account's holder runs for it (a blast, a generator, a validator, one-off sends):
 * started and stopped from requests, stopped between two steps (a step in flight is never cut in
 * half), with waits that a stop cuts short. The subclass's `run` reads its switch from the database
 * before every step, so running it again after a failure goes on from the state the rows hold.
 *
 * The loop is supervised: when `run` fails because the database or Redis is unreachable, the loop
 * says so (`onWaiting`: the account's row and live events), waits until the process's
 * DependencyMonitor sees every dependency again, checks that the account is still this host's
 * (`mayResume`), and runs again, for as long as the outage lasts. A failure of the work itself (a
 * bug, bad data) ends the loop with a visible reason (`onFailed`), never only a log line.
 */
export abstract class LoopRunner {
  private running: Promise<void> | null = null;
  protected stopping = false;
  private again = false;
  private wake: (() => void) | null = null;

  protected constructor(
    protected readonly log: Logger,
    private readonly what: Record<string, unknown>,
    private readonly monitor: DependencyMonitor | null = null,
  ) {}

  protected abstract run(): Promise<void>;

  /** The loop failed on its own error (not an outage): stop it with a reason the owner sees. */
  protected abstract onFailed(message: string): Promise<void>;

  /** The loop waits for `dep`: tell the account's row and lists (best effort: `dep` may be what is down). */
  protected async onWaiting(_dep: Dependency): Promise<void> {}

  /** The loop goes on after a wait: clear what `onWaiting` said (a failure here is a new wait). */
  protected async onResumed(): Promise<void> {}

  /**
   * The loop failed while it was being stopped, so it will not run again by itself: settle what
   * its failed step left (a blast: a sent message whose outcome was not written yet).
   */
  protected async onStoppedAfterFailure(): Promise<void> {}

  /** After a wait: whether the account is still this host's (false ends the loop quietly). */
  protected async mayResume(): Promise<boolean> {
    return true;
  }

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
    this.running = this.supervise().finally(() => {
      this.running = null;
      if (this.again && !this.stopping) this.start();
    });
  }

  /** Runs `run` until it returns, waiting out outages of the dependencies (see the class comment). */
  private async supervise(): Promise<void> {
    let waitingFor: Dependency | null = null;
    let tries = 0;
    while (!this.stopping) {
      const startedAt = Date.now();
      try {
        if (waitingFor) {
          if (!(await this.mayResume())) {
            this.log.info(this.what, 'loop not resumed: the account is no longer held here');
            return;
          }
          await this.onResumed();
          this.log.info({ ...this.what, waitedFor: waitingFor }, 'loop resumed');
          waitingFor = null;
        }
        await this.run();
        return;
      } catch (err) {
        if (this.stopping) {
          this.log.warn({ err, ...this.what }, 'loop failed while stopping');
          await this.onStoppedAfterFailure().catch((e: unknown) =>
            this.log.error({ err: e, ...this.what }, 'loop could not settle after failing while stopping'),
          );
          return;
        }
        const dep = this.monitor ? await this.monitor.classify(err) : null;
        if (!dep) {
          this.log.error({ err, ...this.what }, 'loop failed');
          await this.onFailed(errorText(err)).catch((e: unknown) =>
            this.log.error({ err: e, ...this.what }, 'loop failure not recorded'),
          );
          return;
        }
        if (Date.now() - startedAt > FRESH_AFTER_MS) tries = 0;
        tries += 1;
        if (waitingFor !== dep) {
          // the outage itself is logged once by the monitor; each loop says only that it waits
          this.log.debug({ ...this.what, dependency: dep }, 'loop waits for a dependency');
          waitingFor = dep;
          await this.onWaiting(dep).catch(() => {});
        }
        await this.monitor?.whenUp(() => this.stopping);
        if (this.stopping) return;
        // a dependency that answers its probe but still fails the work is not hammered
        await this.sleep(Math.min(RETRY_CAP_MS, 100 * 2 ** Math.min(tries - 1, 6)));
      }
    }
  }

  /** Stops after the step in flight and resolves once it has; waits at most `graceMs` for it. */
  async stop(graceMs = 15_000): Promise<void> {
    this.stopping = true;
    this.wake?.();
    this.monitor?.wakeAll();
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
