import type { Db } from '@wa/core/db/client';
import { type Dependency, type DependencyMonitor, WAITING_TEXTS } from '@wa/core/dependencies';
import type { Logger } from '@wa/core/logger';
import type { LiveEvent, LiveEventMap } from '@wa/shared';
import { SendError, type WhatsAppSession } from '../drivers/types';
import { LoopRunner } from './loop-runner';
import { claimReceiver, finishSend, nextSend, recordReceiver } from './send.repo';

export interface SendDeps {
  db: Db;
  log: Logger;
  /** publishes to the account owner's channel and to client-admin */
  emit<E extends LiveEvent>(event: E, payload: LiveEventMap[E]): Promise<void>;
  /** milliseconds in one interval "second" (1000; tests shorten it) */
  secondMs: number;
  /** the process's view of the database and Redis: the loop waits out their outages */
  monitor?: DependencyMonitor;
  /** after an outage: whether this host still holds the account */
  stillHeld?: () => Promise<boolean>;
}

/**
 * The one-off sends of one account (the blaster form), run by the host that holds the account:
 * its unfinished sends oldest first, one receiver at a time, `interval` seconds apart also from one
 * send to the next. The rows are the switch and the bookmark: a send stays 'sending' until it is
 * through or the account leaves connected, and a host that takes the account over goes on with it.
 */
export class SendRunner extends LoopRunner {
  /** when this account's last one-off message left */
  private lastAt = 0;
  /** the send the loop is on (a failure of its own stops this one) */
  private current: string | null = null;

  constructor(
    private readonly deps: SendDeps,
    private readonly account: { deviceId: string; accountId: number; session: WhatsAppSession },
  ) {
    super(deps.log, { deviceId: account.deviceId, loop: 'send' }, deps.monitor ?? null);
  }

  protected override async onWaiting(dep: Dependency): Promise<void> {
    const value = '';
    await this.deps.emit('waiting', {
      deviceId: this.account.deviceId,
      waitTime: 0,
      value,
      reason: WAITING_TEXTS[dep],
    });
  }

  protected override async mayResume(): Promise<boolean> {
    return (await this.deps.stillHeld?.()) ?? true;
  }

  protected async onFailed(message: string): Promise<void> {
    if (this.current) await this.finish(this.current, 'stopped', message);
  }

  protected async run(): Promise<void> {
    const { db, secondMs } = this.deps;
    const { deviceId, accountId, session } = this.account;
    while (!this.stopping) {
      const step = await nextSend(db, accountId);
      // nothing left; or not connected, where the state change stops the rows (or a rebuild resumes them)
      if (step?.state !== 'connected' || step.suspended) return;
      this.current = step.id;
      if (step.next === null) {
        await this.finish(step.id, 'done');
        continue;
      }
      const rest = this.lastAt + step.interval * secondMs - Date.now();
      if (rest > 0) {
        await this.pause(Math.ceil(rest / secondMs), rest, step.next);
        continue;
      }
      if (!(await claimReceiver(db, step.id, step.position))) continue;
      await this.deps.emit('progressing', { deviceId, value: step.next, sendId: step.id });
      let success = true;
      try {
        await session.sendText(step.next, step.message);
      } catch (err) {
        success = false;
        const code = err instanceof SendError ? err.code : 'failed';
        if (code === 'not_connected' || code === 'refused') {
          await recordReceiver(db, step.id, false);
          await this.finish(step.id, 'stopped', err instanceof Error ? err.message : String(err));
          return;
        }
      }
      this.lastAt = Date.now();
      await recordReceiver(db, step.id, success);
      if (step.position + 1 < step.total && step.interval > 0 && !this.stopping) {
        await this.pause(step.interval, step.interval * secondMs, step.next);
      }
    }
  }

  private async pause(seconds: number, ms: number, value: string): Promise<void> {
    await this.deps.emit('waiting', { deviceId: this.account.deviceId, waitTime: seconds, value });
    await this.sleep(ms);
  }

  private async finish(sendId: string, status: 'done' | 'stopped', message?: string): Promise<void> {
    const counts = await finishSend(this.deps.db, sendId, status);
    if (!counts) return;
    // the row's transient indicators (Sending…, Waiting…) clear; the run status never changed
    await this.deps.emit('idle', {
      deviceId: this.account.deviceId,
      status: 'idle',
      sendId,
      ...counts,
      ...(message ? { message } : {}),
    });
  }
}
