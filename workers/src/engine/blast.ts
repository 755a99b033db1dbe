import path from 'node:path';
import { AccountsRepo } from '@wa/core/accounts/accounts.repo';
import { runBreaks } from '@wa/core/accounts/blast-rules';
import type { Db } from '@wa/core/db/client';
import { type Dependency, type DependencyMonitor, WAITING_TEXTS } from '@wa/core/dependencies';
import { mimeOf } from '@wa/core/files/file-store';
import { msUntilWindow } from '@wa/core/local-time';
import type { Logger } from '@wa/core/logger';
import {
  BLAST_TEXTS,
  type BlastEndReason,
  expandSpintax,
  type LiveEvent,
  type LiveEventMap,
  renderPlaceholders,
  SAFETY_TEXTS,
  seededRandom,
} from '@wa/shared';
import { type DriverState, type MediaFile, SendError, type WhatsAppSession } from '../drivers/types';
import type { AccountSafety, GuardedAccount } from './account-safety';
import {
  activeTemplates,
  type BlastPlan,
  blastPlan,
  type ClaimedTarget,
  claimTargets,
  leastUsed,
  levelGap,
  promote,
  releaseOwnClaims,
  releaseTargets,
  settleAbandoned,
  type UsedTemplate,
} from './blast.repo';
import {
  type ActiveCampaign,
  activeCampaigns,
  claimFromCampaigns,
  msUntilCampaign,
  pickVariant,
  type Variant,
} from './campaign-claims.repo';
import type { EngineMetrics } from './engine-metrics';
import type { AccountEventData, AccountWebhookEvent } from './live-session';
import type { LocalFiles } from './local-files';
import { LoopRunner } from './loop-runner';
import { type OutcomeInput, reviseUnknown } from './outcome.repo';
import type { OutcomeBatcher } from './outcome-batcher';

/** A blast waiting for its hours or its scheduled start looks at its row again this often. */
const WAIT_STEP_MS = 60_000;

/**
 * The loop reads its account's plan (the run switch, fee, intervals, cap, window) and the active
 * templates again after this long, and after every wait: two statements a second instead of two
 * per message. A stop, a pause, a suspension or a lost connection reach the loop directly (device
 * command, safety rule, session state); the row is the fallback, read within this time.
 */
const PLAN_TTL_MS = 1000;

/** Tries to write a sent message's outcome when the loop failed while stopping (see onStoppedAfterFailure). */
const STOP_WRITE_TRIES = 5;

/** Messages whose live events may still be on their way while the loop sends the next. */
const EMITS_AHEAD = 8;

/** Targets a blast at zero interval claims at a time (see claimTargets). */
const CLAIM_AHEAD = 50;

/**
 * The member's level (§2 Level): the loop counts down the messages the member still needs and asks
 * the database when it reaches 0, and after this many messages anyway (the member's other accounts
 * send too): a member's count is a sum over their day rows, not worth a round trip per message.
 */
const LEVEL_CHECK_EVERY = 50;

export interface BlastDeps {
  db: Db;
  log: Logger;
  /** publishes to the account owner's channel and, unless `admins` is false, to client-admin */
  emit<E extends LiveEvent>(event: E, payload: LiveEventMap[E], admins?: boolean): Promise<void>;
  /** publishes to client-admin only */
  emitAdmins<E extends LiveEvent>(event: E, payload: LiveEventMap[E]): Promise<void>;
  /** template media from the file store, as files on this host */
  files: LocalFiles;
  /** milliseconds in one interval "second" (1000; tests shorten it) */
  secondMs: number;
  random?: () => number;
  /** pauses the account on a ban signal of its own sends */
  safety: AccountSafety;
  /** APP_TIMEZONE: the calendar of the daily cap and the hours of the send window */
  timeZone: string;
  guarded: () => GuardedAccount;
  /** records the outcomes, many accounts' in one transaction */
  outcomes: OutcomeBatcher;
  /** times the claims (wa_claim_duration_seconds) */
  metrics?: EngineMetrics;
  /** tells the webhooks an event about the account */
  webhook<E extends AccountWebhookEvent>(event: E, data: AccountEventData<E>): void;
  /** the process's view of the database and Redis: the loop waits out their outages */
  monitor?: DependencyMonitor;
  /** after an outage: whether this host still holds the account (it renews the lease to know) */
  stillHeld?: () => Promise<boolean>;
}

/** A send whose outcome is not written yet: what `record` writes, and what it tells after. */
interface PendingOutcome {
  input: OutcomeInput;
  plan: BlastPlan;
  template: UsedTemplate | Variant;
  sent: { error: string | null; sentId: string | null };
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
  /** targets claimed ahead and not sent yet; the first is marked started (see claimTargets) */
  private claims: ClaimedTarget[] = [];
  /** the plan, the pool's templates and the active campaigns as last read, and when */
  private cached: Current | null = null;
  /** accepted messages the member still needs for the next level (undefined: not asked yet; null: no next level) */
  private levelGap: number | null | undefined;
  /** accepted messages since the level was last asked (LEVEL_CHECK_EVERY) */
  private sinceLevelCheck = 0;
  /**
   * Live events still on their way, oldest first: a message's events go out while the next ones
   * are sent (the bus keeps their order); a loop lets at most EMITS_AHEAD messages' events be
   * queued before it waits for the oldest. They are best effort: a bus that fails is the monitor's
   * to report (see AccountLoops), and the blast goes on without Redis.
   */
  private emitting: Promise<unknown>[] = [];
  /**
   * A message that left but whose outcome could not be written (the database blinked): kept here,
   * its target still claimed and started, and written first when the loop runs again, so it is
   * logged with its real status and paid. One at most: the loop sends nothing before it is written.
   */
  private unwritten: PendingOutcome | null = null;
  /**
   * This start of the loop settled what a previous holder left (settleAbandoned): a run after that
   * is the supervisor's restart after an outage, whose claims are all its own.
   */
  private settled = false;
  /** whether the row says why the loop waits (cleared when it goes on) */
  private waitShown = false;

  constructor(
    private readonly deps: BlastDeps,
    private readonly account: BlastAccount,
  ) {
    super(deps.log, { deviceId: account.deviceId, loop: 'blast' }, deps.monitor ?? null);
  }

  /** A fresh start (from a request or a resume) settles what a previous holder may have left. */
  override start(): void {
    if (!this.active) this.settled = false;
    super.start();
  }

  protected async run(): Promise<void> {
    const { db, log } = this.deps;
    const { deviceId, accountId } = this.account;
    // levels and the plan may have changed since the last run: read them again
    this.levelGap = undefined;
    this.cached = null;
    if (this.unwritten) await this.write(this.unwritten);
    if (this.settled) {
      // a restart of this runner after an outage: every message it sent is recorded (the one whose
      // outcome was unwritten just was), so what it still has claimed never left and goes back
      await releaseOwnClaims(db, accountId);
    } else {
      const abandoned = await settleAbandoned(db, accountId, this.deps.timeZone);
      if (abandoned) log.warn({ deviceId, abandoned }, 'settled sends a previous holder left pending');
      this.settled = true;
    }
    try {
      await this.loop();
    } finally {
      const events = this.emitting;
      this.emitting = [];
      // live events are best effort (see AccountLoops): nothing here waits on Redis
      await Promise.all(events).catch(() => {});
      // claimed ahead and not sent: back to the pool (after an outage, the next run does it)
      const unsent = this.claims;
      this.claims = [];
      await releaseTargets(db, accountId, unsent);
    }
  }

  protected override async onWaiting(dep: Dependency): Promise<void> {
    const { deviceId, accountId } = this.account;
    const reason = WAITING_TEXTS[dep];
    await this.deps.emit('waiting', { deviceId, waitTime: 0, value: '', reason });
    // the row says it too when it can be written (Redis down; not the database)
    await new AccountsRepo(this.deps.db).setWaitingReason(accountId, reason);
    this.waitShown = true;
  }

  protected override async onResumed(): Promise<void> {
    if (this.waitShown) await new AccountsRepo(this.deps.db).setWaitingReason(this.account.accountId, null);
    this.waitShown = false;
  }

  /**
   * A stop came while the outcome of a sent message failed to be written (a deadlock, a blink of the
   * database): the loop ends without running again, so the outcome is written here, a few times
   * over a few seconds, rather than left in memory until the next start (or logged 'unknown',
   * unpaid, by a later holder). Its target is still claimed and started, so nothing else sends it.
   */
  protected override async onStoppedAfterFailure(): Promise<void> {
    for (let attempt = 0; this.unwritten && attempt < STOP_WRITE_TRIES; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, 250 * attempt));
      await this.write(this.unwritten).catch(() => {});
    }
    if (this.unwritten) {
      this.deps.log.error(
        { deviceId: this.account.deviceId, target: this.unwritten.input.target.id },
        'a sent message could not be recorded while the blast stopped; it is written at the next start',
      );
    }
  }

  protected override async mayResume(): Promise<boolean> {
    return (await this.deps.stillHeld?.()) ?? true;
  }

  protected async onFailed(message: string): Promise<void> {
    const pending = this.unwritten;
    this.unwritten = null;
    if (pending) {
      this.deps.log.error(
        { deviceId: this.account.deviceId, target: pending.input.target.id },
        'a sent message could not be recorded; its next holder logs it unknown',
      );
    }
    await this.finish('error_blast', BLAST_TEXTS.failed(message), 'error');
  }

  private async loop(): Promise<void> {
    const { db } = this.deps;
    const { deviceId, accountId } = this.account;
    let announced = false;
    while (!this.stopping) {
      const current = await this.current();
      if (!current) return;
      const plan = current.plan;
      const scheduled = plan.startAt ? plan.startAt.getTime() - Date.now() : 0;
      // the rules of a running blast (RUN_RULES in blast-rules.ts)
      const account = {
        status: plan.status,
        state: plan.state,
        suspended: plan.suspended,
        sent_today: plan.sentToday,
        daily_cap: plan.dailyCap,
      };
      const broken = runBreaks(account, scheduled > 0);
      // stopped (the API said so and told the browsers), no longer connected (the state event did), suspended
      if (broken?.ends === 'quiet') return;
      if (!announced) {
        await this.deps.emit('sending', { deviceId, status: 'sending' });
        announced = true;
      }
      // account safety: the daily cap ends the blast for the day (unless it is scheduled for later)
      if (broken) return this.finish('finished', broken.refusal(account, deviceId), broken.ends);
      // a scheduled blast waits for its time; outside the send window the blast waits. The row says until when.
      const wait = Math.max(scheduled, msUntilWindow(new Date(), plan.windowStart, plan.windowEnd, this.deps.timeZone));
      if (wait > 0) {
        await this.waitFor(wait);
        continue;
      }
      const poolTemplate = leastUsed(current.templates);
      // at full speed claims go fifty at a time (one commit for fifty); paced blasts claim one by one
      if (!this.claims.length) {
        const ahead = plan.intervalMax === 0;
        const claim = () => this.claim(current, ahead ? CLAIM_AHEAD : 1, poolTemplate !== null);
        this.claims = await (this.deps.metrics?.timeClaim(ahead ? 'ahead' : 'one', claim) ?? claim());
      }
      const target = this.claims.shift();
      if (!target) {
        // a campaign waiting for its start or its hours: the blast waits with it
        const later = this.campaignWait(current.campaigns);
        if (later > 0) {
          await this.waitFor(later);
          continue;
        }
        if (!poolTemplate && !current.campaigns.length)
          return this.finish('error_blast', BLAST_TEXTS.noTemplate, 'error');
        return this.finish('finished', BLAST_TEXTS.noTargets, 'finished');
      }
      // a campaign's target gets its variant by weight (seeded by the target: the same one each time)
      const template = target.campaign_id === null ? poolTemplate : this.variantFor(current, target);
      if (!template) {
        // its campaign has no variant to send any more (paused or unapproved since): back it goes
        await releaseTargets(db, accountId, [target]);
        this.cached = null;
        continue;
      }
      let media: MediaFile | null;
      try {
        media = await this.mediaOf(template.media);
      } catch (err) {
        // a store that cannot be read fails the loop with nothing left claimed
        await releaseTargets(db, accountId, [target]).catch(() => {});
        throw err;
      }
      while (this.emitting.length >= EMITS_AHEAD) await this.emitting.shift();
      const progress = capProgress(plan.sentToday, plan.dailyCap);
      this.defer([
        this.deps.emit('progressing', { deviceId, value: target.number, target: target.id, progress }),
        this.deps.emitAdmins('in_use', { deviceId, receiver: { id: target.id, in_use: 1 } }),
      ]);

      // spintax varies the text per message, seeded by the target so a message is repeatable
      const varied = expandSpintax(template.textWa, seededRandom(target.id));
      const text = renderPlaceholders(varied, { name: target.name, phoneNumber: target.number });
      let error: string | null = null;
      let sentId: string | null = null;
      try {
        const sent = media
          ? await this.account.session.sendMedia(target.number, media, text || undefined)
          : await this.account.session.sendText(target.number, text);
        sentId = sent.id;
      } catch (err) {
        const code = err instanceof SendError ? err.code : 'failed';
        const message = err instanceof Error ? err.message : String(err);
        if (code === 'not_connected' || code === 'refused') {
          // nothing left this account: the number goes back for another sender, the blast ends
          await releaseTargets(db, accountId, [target]);
          return this.finish('error_blast', message, 'error');
        }
        if (code === 'rate_limited' || code === 'restricted') {
          // WhatsApp refused it for this account: the number goes back, the account rests
          await releaseTargets(db, accountId, [target]);
          const reason = code === 'rate_limited' ? SAFETY_TEXTS.rateLimited : SAFETY_TEXTS.restricted(message);
          return this.deps.safety.pause(this.deps.guarded(), reason);
        }
        error = `${code}: ${message}`;
      }
      const streak = await this.record(plan, template, target, { error, sentId, text });
      // the account moved to another holder meanwhile: it goes on there
      if (streak === null) return;
      if (streak !== null && streak >= plan.failStreakPause) {
        return this.deps.safety.pause(this.deps.guarded(), SAFETY_TEXTS.failStreak(streak));
      }
      if (this.stopping) return;
      const span = plan.intervalMax - plan.intervalMin;
      const waitTime = plan.intervalMin + Math.floor((this.deps.random ?? Math.random)() * (span + 1));
      if (waitTime > 0) {
        await this.deps.emit('waiting', { deviceId, waitTime, value: target.number });
        await this.sleep(waitTime * this.deps.secondMs);
      }
    }
  }

  /** Records a send's outcome and tells the lists; the account's failure streak after it (null: settled elsewhere). */
  private async record(
    plan: BlastPlan,
    template: UsedTemplate | Variant,
    target: ClaimedTarget,
    sent: { error: string | null; sentId: string | null; text: string },
  ): Promise<number | null> {
    const { accountId } = this.account;
    const success = sent.error === null;
    const input: OutcomeInput = {
      target,
      userId: plan.userId,
      accountId,
      templateId: template.id,
      campaignId: target.campaign_id,
      variantId: target.campaign_id === null ? null : template.id,
      success,
      fee: plan.fee,
      referrerId: plan.referrerId,
      referralFee: Math.floor((plan.fee * plan.referralPercent) / 100),
      payoutOn: plan.payoutOn,
      error: sent.error,
      waMessageId: sent.sentId,
      text: sent.text,
      timeZone: this.deps.timeZone,
      next: this.claims[0]?.id ?? null,
    };
    return this.write({ input, plan, template, sent });
  }

  /**
   * Writes a send's outcome. When the write fails the outcome is kept (`unwritten`) and the error
   * goes on to the supervisor, which runs the loop again once the database is back: that run
   * writes it first, with no next claim to mark (the claims ahead went back to the pool).
   */
  private async write(pending: PendingOutcome): Promise<number | null> {
    const { deviceId, accountId } = this.account;
    const { input, plan, template, sent } = pending;
    const { target } = input;
    const success = input.success;
    let outcome: Awaited<ReturnType<OutcomeBatcher['record']>>;
    try {
      outcome = await this.deps.outcomes.record(input);
    } catch (err) {
      this.unwritten = { ...pending, input: { ...input, next: null } };
      throw err;
    }
    this.unwritten = null;
    if (!outcome) {
      // the claim was settled elsewhere: another holder took the account over while this one was
      // frozen or cut off, and logged the message 'unknown'. This host knows what happened: the log
      // says so and the fee is paid. Its other claims are settled too, and the loop ends here.
      this.claims = [];
      if (await reviseUnknown(this.deps.db, input)) {
        this.deps.log.warn({ deviceId, target: target.id }, 'the next holder logged this send unknown; revised');
      }
      return null;
    }
    // a claim whose send cannot be marked started goes back rather than risk a double send later
    if (this.claims.length && !outcome.nextStarted) {
      const unsent = this.claims;
      this.claims = [];
      await releaseTargets(this.deps.db, accountId, unsent);
    }
    // what the row now says, kept in the plan until it is read again
    if ('uses' in template) template.uses += 1;
    plan.sentToday = outcome.account.sent_today;
    if (success) await this.countTowardsLevel(plan.userId);
    const { account, receiver } = outcome;
    if (success) {
      this.deps.webhook('message.sent', {
        message_id: sent.sentId,
        target: target.number,
        target_id: target.id,
        template_id: template.id,
        fee: plan.payoutOn === 'accepted' ? plan.fee : 0,
      });
    } else {
      this.deps.webhook('message.failed', {
        message_id: sent.sentId,
        target: target.number,
        target_id: target.id,
        error: sent.error ?? 'failed',
      });
    }
    const event = success ? 'count_success' : 'count_fail';
    const value = success ? account.count_success : account.count_fail;
    // the member's list gets the account's count; the admins' also the target number's row (§4)
    const { income, sent_today } = account;
    this.defer([
      this.deps.emit(event, { deviceId, value, income, sent_today }, false),
      this.deps.emitAdmins(event, { deviceId, value, income, sent_today, receiver }),
    ]);
    return account.fail_streak;
  }

  /** Sends these events on while the loop goes on; the next message awaits them (see `emitting`). */
  private defer(events: Promise<unknown>[]): void {
    // live events are best effort: a failure neither crashes the process nor stops the blast
    this.emitting.push(Promise.all(events).catch(() => {}));
  }

  /** The plan, the pool's templates and the active campaigns, read again when PLAN_TTL_MS has passed. */
  private async current(): Promise<Current | null> {
    if (this.cached && Date.now() - this.cached.at < PLAN_TTL_MS) return this.cached;
    const { db } = this.deps;
    const plan = await blastPlan(db, this.account.accountId);
    if (!plan) {
      this.cached = null;
      return null;
    }
    const templates = await activeTemplates(db, this.account.accountId);
    const campaigns = await activeCampaigns(db);
    this.cached = { plan, templates, campaigns, at: Date.now() };
    return this.cached;
  }

  /**
   * The next targets: the active campaigns' that may send now come first (by priority, equals
   * taking turns; see claimFromCampaigns), then the default pool's, when it has a template.
   */
  private async claim(current: Current, n: number, pool: boolean): Promise<ClaimedTarget[]> {
    const { db } = this.deps;
    const { accountId } = this.account;
    const now = new Date();
    const open = current.campaigns.filter((c) => msUntilCampaign(c, now, this.deps.timeZone) === 0).map((c) => c.id);
    if (open.length) {
      const claimed = await claimFromCampaigns(db, accountId, n, open);
      if (claimed.length) return claimed;
    }
    return pool ? claimTargets(db, accountId, n) : [];
  }

  /** How long until a campaign waiting for its start or its hours may send (0: none waits). */
  private campaignWait(campaigns: ActiveCampaign[]): number {
    const now = new Date();
    let soonest = 0;
    for (const c of campaigns) {
      const ms = msUntilCampaign(c, now, this.deps.timeZone);
      if (ms > 0 && (soonest === 0 || ms < soonest)) soonest = ms;
    }
    return soonest;
  }

  /** The variant a campaign's target gets, by the variants' weights. */
  private variantFor(current: Current, target: ClaimedTarget): Variant | null {
    const campaign = current.campaigns.find((c) => c.id === target.campaign_id);
    return campaign ? pickVariant(campaign.variants, seededRandom(target.id * 7919 + 17)()) : null;
  }

  /** One more accepted message towards the member's next level; promotes when it is reached. */
  private async countTowardsLevel(userId: number): Promise<void> {
    const { db } = this.deps;
    if (this.levelGap === undefined) this.levelGap = await levelGap(db, userId);
    else if (this.levelGap !== null) this.levelGap -= 1;
    this.sinceLevelCheck += 1;
    const reached = this.levelGap !== null && this.levelGap <= 0;
    if (!reached && this.sinceLevelCheck < LEVEL_CHECK_EVERY) return;
    // a new level brings its fee: the plan is read again for the next message
    if (reached && (await promote(db, userId))) this.cached = null;
    this.levelGap = await levelGap(db, userId);
    this.sinceLevelCheck = 0;
  }

  /** Tells the lists until when the blast waits, and waits (looking at its row again every minute). */
  private async waitFor(ms: number): Promise<void> {
    const until = new Date(Date.now() + ms).toISOString();
    await this.deps.emit('waiting', {
      deviceId: this.account.deviceId,
      waitTime: Math.ceil(ms / 1000),
      value: '',
      until,
    });
    await this.sleep(Math.min(ms, WAIT_STEP_MS));
    this.cached = null;
  }

  /**
   * Ends the run with `reason`. The guarded switch (stopSending) decides who tells it: only the call
   * that flips the account from sending to idle sends `finished`/`error_blast` and the one
   * `blast.finished` webhook; a stop, a pause, a suspension or a lost session that ended it first
   * told it themselves.
   */
  private async finish(event: 'finished' | 'error_blast', message: string, reason: BlastEndReason): Promise<void> {
    const { deviceId, accountId } = this.account;
    if (!(await new AccountsRepo(this.deps.db).stopSending(accountId))) return;
    const state = await this.account.session.getState().catch((): DriverState => 'unknown');
    await this.deps.emit(event, { deviceId, state, status: 'idle', message, reason });
    this.deps.webhook('blast.finished', { reason, message });
  }

  /**
   * A template's stored medium as a file on this host, fetched from the file store the first time;
   * media kept elsewhere (a URL) are not sent. A database error is thrown, so the loop waits it out
   * rather than send the caption alone.
   */
  private async mediaOf(media: string | null): Promise<MediaFile | null> {
    if (!media?.startsWith('/uploads/templates/')) return null;
    const filename = path.basename(media);
    const file = await this.deps.files.path('template', filename);
    if (!file) {
      this.deps.log.warn({ media }, 'template medium not in the file store; sending the caption only');
      return null;
    }
    return { path: file, filename, mimetype: mimeOf(filename) };
  }
}

/** What the loop reads every PLAN_TTL_MS: the plan, the pool's templates, the active campaigns. */
interface Current {
  plan: BlastPlan;
  templates: UsedTemplate[];
  campaigns: ActiveCampaign[];
  at: number;
}

/** A blast's progress (§4 Live events, `progressing`): today's sends against today's cap, in percent with 2 decimals. */
export function capProgress(sentToday: number, dailyCap: number): number {
  if (dailyCap <= 0) return 100;
  return Math.min(100, Math.floor((sentToday / dailyCap) * 10_000) / 100);
}
