import { AccountsRepo } from '@wa/core/accounts/accounts.repo';
import type { Db } from '@wa/core/db/client';
import type { ToolKind } from '@wa/core/db/tool-tables';
import type { DependencyMonitor } from '@wa/core/dependencies';
import type { Logger } from '@wa/core/logger';
import type { EventBus } from '@wa/core/realtime/bus';
import { publishToAdmins, publishToOwnerAndAdmins } from '@wa/core/realtime/publish';
import type { WebhookEmitter } from '@wa/core/webhooks/webhooks';
import type { AccountSafety, GuardedAccount } from './account-safety';
import { BlastRunner } from './blast';
import type { EngineMetrics } from './engine-metrics';
import {
  type AccountEventData,
  type AccountWebhookEvent,
  emitFor,
  hookFor,
  type LiveSession,
  type SessionLoops,
} from './live-session';
import type { LocalFiles } from './local-files';
import type { OutcomeBatcher } from './outcome-batcher';
import { SendRunner } from './send';
import { hasUnfinishedSend } from './send.repo';
import { runningTools, ToolRunner } from './tools';

/** The account the loops run for, as its session knows it (`accountId` is set once it is saved). */
export type LoopAccount = Pick<
  LiveSession,
  'deviceId' | 'userId' | 'accountId' | 'session' | 'info' | 'state' | 'reconnects'
> &
  Partial<Pick<LiveSession, 'loops'>>;

/** The account as the safety rules see it: its blast can be ended and its lists told. */
export function guardedAccount(
  deps: { bus: EventBus; webhooks: WebhookEmitter },
  live: LoopAccount,
  loops: Pick<SessionLoops, 'stopBlast'>,
): GuardedAccount {
  const accountId = live.accountId;
  if (accountId === null) throw new Error(`${live.deviceId} is not saved yet`);
  return {
    deviceId: live.deviceId,
    accountId,
    userId: live.userId,
    stopBlast: () => loops.stopBlast(0),
    emit: (event, payload) => emitFor(deps.bus, live, event, payload),
    webhook: <E extends AccountWebhookEvent>(event: E, data: AccountEventData<E>) =>
      hookFor(deps.webhooks, live, event, data),
  };
}

export interface LoopDeps {
  db: Db;
  bus: EventBus;
  log: Logger;
  /** template media and validator files from the file store (DATA_DIR keeps the media's cache) */
  files: LocalFiles;
  /** milliseconds in one interval "second" (1000; tests shorten it) */
  secondMs: number;
  /** pauses the account on the blast's own ban signals (a failure streak, a rate limit) */
  safety: AccountSafety;
  /** APP_TIMEZONE: the calendar of daily caps and the hours of the send window */
  timeZone: string;
  /** records the blasts' outcomes, many accounts' in one transaction */
  outcomes: OutcomeBatcher;
  /** the process's webhooks (NO_WEBHOOKS in tests that do not care) */
  webhooks: WebhookEmitter;
  /** the engine's own metrics (claim latency) */
  metrics: EngineMetrics;
  /** the process's view of the database and Redis: loops wait out their outages */
  monitor: DependencyMonitor;
  /** whether this host still holds the account (renews its lease): a loop asks after an outage */
  stillHeld(accountId: number): Promise<boolean>;
}

/**
 * The loops a holder runs for one account (its blast, its one-off sends, the generators and
 * validators that check numbers with it), made when first started. The rows are their switches:
 * a loop reads its row before every step, so starting one here only wakes it.
 */
export class AccountLoops implements SessionLoops {
  private blast: BlastRunner | null = null;
  private sends: SendRunner | null = null;
  /** by `${kind}:${id}` */
  private readonly tools = new Map<string, ToolRunner>();

  constructor(
    private readonly deps: LoopDeps,
    private readonly live: LoopAccount,
  ) {}

  /**
   * Live events are best effort: the loops go on sending while Redis is away (their rows are the
   * truth, read again by the dashboard), and the monitor reports the outage once.
   */
  private quiet(sent: Promise<void>): Promise<void> {
    return sent.catch((err: unknown) => this.deps.monitor.markDown('redis', err));
  }

  /** A saved account's id (the loops of an unsaved login are refused before they get here). */
  private get accountId(): number {
    if (this.live.accountId === null) throw new Error(`${this.live.deviceId} is not saved yet`);
    return this.live.accountId;
  }

  startBlast(): void {
    this.blast ??= new BlastRunner(
      {
        db: this.deps.db,
        log: this.deps.log,
        emit: (event, payload, admins) => this.quiet(emitFor(this.deps.bus, this.live, event, payload, admins)),
        emitAdmins: (event, payload) => this.quiet(publishToAdmins(this.deps.bus, event, payload)),
        files: this.deps.files,
        secondMs: this.deps.secondMs,
        safety: this.deps.safety,
        timeZone: this.deps.timeZone,
        outcomes: this.deps.outcomes,
        metrics: this.deps.metrics,
        guarded: () => guardedAccount(this.deps, this.live, this),
        webhook: (event, data) => hookFor(this.deps.webhooks, this.live, event, data),
        monitor: this.deps.monitor,
        stillHeld: () => this.deps.stillHeld(this.accountId),
      },
      { deviceId: this.live.deviceId, accountId: this.accountId, session: this.live.session },
    );
    this.blast.start();
  }

  /** Whether the blast loop runs (or waits out an outage) here. */
  get blasting(): boolean {
    return this.blast?.active ?? false;
  }

  async stopBlast(graceMs?: number): Promise<void> {
    await this.blast?.stop(graceMs);
  }

  startSends(): void {
    this.sends ??= new SendRunner(
      {
        db: this.deps.db,
        log: this.deps.log,
        emit: (event, payload) => this.quiet(emitFor(this.deps.bus, this.live, event, payload)),
        secondMs: this.deps.secondMs,
        monitor: this.deps.monitor,
        stillHeld: () => this.deps.stillHeld(this.accountId),
      },
      { deviceId: this.live.deviceId, accountId: this.accountId, session: this.live.session },
    );
    this.sends.start();
  }

  private tool(kind: ToolKind, id: number): ToolRunner {
    const key = `${kind}:${id}`;
    let runner = this.tools.get(key);
    if (!runner) {
      runner = new ToolRunner(
        {
          db: this.deps.db,
          log: this.deps.log,
          // a tool's events go to the tool's owner, who may not own the account
          emit: (userId, event, payload) => this.quiet(publishToOwnerAndAdmins(this.deps.bus, userId, event, payload)),
          files: this.deps.files,
          secondMs: this.deps.secondMs,
          timeZone: this.deps.timeZone,
          monitor: this.deps.monitor,
          stillHeld: () => this.deps.stillHeld(this.accountId),
        },
        kind,
        id,
        { deviceId: this.live.deviceId, accountId: this.accountId, session: this.live.session },
      );
      this.tools.set(key, runner);
    }
    return runner;
  }

  startTool(kind: ToolKind, id: number): void {
    this.tool(kind, id).start();
  }

  async stopTool(kind: ToolKind, id: number, graceMs?: number): Promise<void> {
    await this.tools.get(`${kind}:${id}`)?.stop(graceMs);
  }

  /** Stops every loop after its step in flight (at most `graceMs` each, 15 s by default). */
  async stopAll(graceMs?: number): Promise<void> {
    await Promise.all([
      this.blast?.stop(graceMs),
      this.sends?.stop(graceMs),
      ...[...this.tools.values()].map((t) => t.stop(graceMs)),
    ]);
  }

  /** The session is gone: every loop stops and is forgotten (what still says 'sending' resumes elsewhere). */
  async close(): Promise<void> {
    await this.stopAll();
    this.blast = null;
    this.sends = null;
    this.tools.clear();
  }

  /**
   * A connected account whose blast, one-off sends, generators or validators are still switched on
   * (its last holder died, or the connection came back after a rebuild) carries on with them.
   * `current` says whether this session is still the one held for the device.
   */
  async resume(current: () => boolean): Promise<void> {
    if (this.live.accountId === null) return;
    const accountId = this.live.accountId;
    const row = await new AccountsRepo(this.deps.db).runSwitches(accountId);
    if (!current()) return;
    if (row?.status === 'sending' && !row.suspended && !this.blast?.active) {
      this.deps.log.info({ deviceId: this.live.deviceId }, 'resuming blast');
      this.startBlast();
    }
    if (!row?.suspended && !this.sends?.active && (await hasUnfinishedSend(this.deps.db, accountId))) {
      this.startSends();
    }
    for (const t of await runningTools(this.deps.db, accountId)) {
      const runner = this.tool(t.kind, t.id);
      if (!runner.active) runner.start();
    }
  }
}
