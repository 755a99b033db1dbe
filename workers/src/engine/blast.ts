import { existsSync } from 'node:fs';
import path from 'node:path';
import { AccountsRepo } from '@wa/core/accounts/accounts.repo';
import type { Db } from '@wa/core/db/client';
import type { Logger } from '@wa/core/logger';
import { BLAST_TEXTS, type LiveEvent, type LiveEventMap, renderPlaceholders } from '@wa/shared';
import { type DriverState, type MediaFile, SendError, type WhatsAppSession } from '../drivers/types';
import {
  blastPlan,
  type ClaimedTarget,
  claimTarget,
  nextTemplate,
  recordOutcome,
  releaseTarget,
  settleAbandoned,
} from './blast.repo';
import { LoopRunner } from './loop-runner';

const MIME: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  '3gp': 'video/3gpp',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  pdf: 'application/pdf',
};

export interface BlastDeps {
  db: Db;
  log: Logger;
  /** publishes to the account owner's channel and, unless `admins` is false, to client-admin */
  emit<E extends LiveEvent>(event: E, payload: LiveEventMap[E], admins?: boolean): Promise<void>;
  /** publishes to client-admin only */
  emitAdmins<E extends LiveEvent>(event: E, payload: LiveEventMap[E]): Promise<void>;
  /** where template media live: `${dataDir}/uploads/templates` */
  dataDir: string;
  /** milliseconds in one interval "second" (1000; tests shorten it) */
  secondMs: number;
  random?: () => number;
}

/** The account a blast runs for, as its holder knows it. */
export interface BlastAccount {
  deviceId: string;
  accountId: number;
  session: WhatsAppSession;
}

/**
 * One account's blast loop, run by the host that holds the account's session. The account row's
 * `status = 'sending'` is the switch: the API sets it (start) and clears it (stop), the loop reads
 * it before every message, and a host that takes the account over after a crash resumes a blast
 * whose status is still 'sending'. Each message: claim the next target (SKIP LOCKED, with a
 * pending log), send the template with its placeholders filled, record the outcome with the
 * member's fee in one transaction, publish the counts, wait a random interval in [min, max] s.
 */
export class BlastRunner extends LoopRunner {
  constructor(
    private readonly deps: BlastDeps,
    private readonly account: BlastAccount,
  ) {
    super(deps.log, { deviceId: account.deviceId, loop: 'blast' });
  }

  protected async run(): Promise<void> {
    const { db, log } = this.deps;
    const { deviceId, accountId } = this.account;
    const abandoned = await settleAbandoned(db, accountId);
    if (abandoned) log.warn({ deviceId, abandoned }, 'settled sends a previous holder left pending');
    let announced = false;
    while (!this.stopping) {
      const plan = await blastPlan(db, accountId);
      // stopped (the API said so and told the browsers), or no longer connected (the state event did)
      if (plan?.status !== 'sending' || plan.state !== 'connected' || plan.suspended) return;
      if (!announced) {
        await this.deps.emit('sending', { deviceId, status: 'sending' });
        announced = true;
      }
      const template = await nextTemplate(db);
      if (!template) return this.finish('error_blast', BLAST_TEXTS.noTemplate);
      const target = await claimTarget(db, plan.userId, accountId);
      if (!target) return this.finish('finished', BLAST_TEXTS.noTargets);
      await this.deps.emit('progressing', { deviceId, value: target.number, target: target.id });
      await this.deps.emitAdmins('in_use', { deviceId, receiver: { id: target.id, in_use: 1 } });

      const text = renderPlaceholders(template.textWa, { name: target.name, phoneNumber: target.number });
      let error: string | null = null;
      try {
        const media = this.mediaOf(template.media);
        if (media) await this.account.session.sendMedia(target.number, media, text || undefined);
        else await this.account.session.sendText(target.number, text);
      } catch (err) {
        const code = err instanceof SendError ? err.code : 'failed';
        const message = err instanceof Error ? err.message : String(err);
        if (code === 'not_connected' || code === 'refused') {
          // nothing left this account: the number goes back for another sender, the blast ends
          await releaseTarget(db, target);
          return this.finish('error_blast', message);
        }
        error = `${code}: ${message}`;
      }
      await this.record(plan, template.id, target, error);
      if (this.stopping) return;
      const span = plan.intervalMax - plan.intervalMin;
      const waitTime = plan.intervalMin + Math.floor((this.deps.random ?? Math.random)() * (span + 1));
      if (waitTime > 0) {
        await this.deps.emit('waiting', { deviceId, waitTime, value: target.number });
        await this.sleep(waitTime * this.deps.secondMs);
      }
    }
  }

  private async record(
    plan: NonNullable<Awaited<ReturnType<typeof blastPlan>>>,
    templateId: number,
    target: ClaimedTarget,
    error: string | null,
  ): Promise<void> {
    const { deviceId, accountId } = this.account;
    const success = error === null;
    const outcome = await recordOutcome(this.deps.db, {
      target,
      userId: plan.userId,
      accountId,
      templateId,
      success,
      fee: plan.fee,
      referrerId: plan.referrerId,
      referralFee: Math.floor((plan.fee * plan.referralPercent) / 100),
      error,
    });
    if (!outcome) return;
    const { account, receiver } = outcome;
    const event = success ? 'count_success' : 'count_fail';
    const value = success ? account.count_success : account.count_fail;
    // the member's list gets the account's count; the admins' also the target number's row (§4)
    await this.deps.emit(event, { deviceId, value, income: account.income }, false);
    await this.deps.emitAdmins(event, { deviceId, value, income: account.income, receiver });
  }

  private async finish(event: 'finished' | 'error_blast', message: string): Promise<void> {
    const { deviceId, accountId } = this.account;
    // only the call that ends it tells the browsers (the API's stop may have ended it already)
    if (!(await new AccountsRepo(this.deps.db).stopSending(accountId))) return;
    const state = await this.account.session.getState().catch((): DriverState => 'unknown');
    await this.deps.emit(event, { deviceId, state, status: 'idle', message });
  }

  /** A template's stored medium as a file on this host; media kept elsewhere (a URL) are not sent. */
  private mediaOf(media: string | null): MediaFile | null {
    if (!media?.startsWith('/uploads/templates/')) return null;
    const filename = path.basename(media);
    const file = path.join(this.deps.dataDir, 'uploads', 'templates', filename);
    if (!existsSync(file)) {
      this.deps.log.warn({ media }, 'template medium missing on this host; sending the caption only');
      return null;
    }
    const ext = path.extname(filename).slice(1).toLowerCase();
    return { path: file, filename, mimetype: MIME[ext] ?? 'application/octet-stream' };
  }
}
