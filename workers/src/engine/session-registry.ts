import type { AccountsRepo } from '@wa/core/accounts/accounts.repo';
import type { Db } from '@wa/core/db/client';
import type { DependencyMonitor } from '@wa/core/dependencies';
import type { Logger } from '@wa/core/logger';
import type { EventBus } from '@wa/core/realtime/bus';
import { deviceChannel } from '@wa/core/realtime/rpc';
import type { WebhookEmitter } from '@wa/core/webhooks/webhooks';
import type { LiveEvent, LiveEventMap } from '@wa/shared';
import type { Engine, SessionStore, WhatsAppDriver } from '../drivers/types';
import { AccountLoops } from './account-loops';
import type { AccountSafety } from './account-safety';
import { type DeviceCommandPorts, onDeviceRequest } from './device-commands';
import { type DriverEventPorts, MAX_REBUILDS, onDriverEvent } from './driver-events';
import type { EngineMetrics } from './engine-metrics';
import { emitFor, type HeldState, hookFor, type LiveSession } from './live-session';
import type { LocalFiles } from './local-files';
import { FailedLogins, failLogin } from './login-failure';
import type { LoginsRepo } from './logins.repo';
import type { OutcomeBatcher } from './outcome-batcher';
import { parseProxy } from './proxy';
import { type ReceiptPorts, SessionReceipts } from './receipts';
import { stopSends } from './send.repo';
import type { DropOptions, HeldSessions } from './session-ports';
import { watchSession } from './watchdog';

/** Why a webhook says a blast ended when WhatsApp suspended its account (ours, as rule #1's is). */
const SUSPENDED = 'WhatsApp suspended the account.';

export interface RegistryDeps {
  db: Db;
  bus: EventBus;
  driver: WhatsAppDriver;
  store: SessionStore;
  log: Logger;
  accounts: AccountsRepo;
  logins: LoginsRepo;
  workerId: string;
  leaseMs: number;
  /** how long an unsaved login lives after its last sign of life (see touch) */
  pendingTtlMs: number;
  /** template media and validator files from the file store */
  files: LocalFiles;
  secondMs: number;
  /** APP_TIMEZONE: the calendar of daily caps and the hours of the send window */
  timeZone: string;
  safety: AccountSafety;
  /** records the blasts' outcomes, many accounts' in one transaction */
  outcomes: OutcomeBatcher;
  /** a send or number check past this has timed out; `stuckAfter` in a row rebuild the session (watchdog.ts) */
  sendTimeoutMs: number;
  stuckAfter: number;
  /** the process's webhooks */
  webhooks: WebhookEmitter;
  /** the engine's own metrics */
  metrics: EngineMetrics;
  /** the process's view of the database and Redis: loops wait out their outages */
  monitor: DependencyMonitor;
  /** whether this host still holds the account (renews its lease): a loop asks after an outage */
  stillHeld(accountId: number): Promise<boolean>;
}

/**
 * The sessions this process holds, by device id: it starts them (with their driver events and
 * their device channel wired to the handlers), changes their state, and drops them. The host
 * decides which sessions to hold; the lease sweeper which accounts are this host's (it gets the
 * registry as `HeldSessions`). The handlers get it as `Sessions` (session-ports.ts) with the few
 * services each uses, built here once.
 */
export class SessionRegistry implements HeldSessions {
  private readonly live = new Map<string, LiveSession>();
  /** set once the host stops: broken sessions are no longer rebuilt */
  stopped = false;
  /** logins that failed here lately, still answering their create page's `qr` requests */
  readonly failedLogins = new FailedLogins();
  /** what a session's driver events (and a failed login) use */
  private readonly events: DriverEventPorts;
  /** what the device commands use */
  private readonly commands: DeviceCommandPorts;
  /** what every session's receipts use */
  private readonly receipts: ReceiptPorts;

  constructor(private readonly deps: RegistryDeps) {
    const { db, bus, log, accounts, safety, webhooks, workerId, leaseMs, driver, monitor, timeZone } = deps;
    this.events = { sessions: this, failedLogins: this.failedLogins, bus, log, accounts, safety, webhooks };
    this.commands = { sessions: this, accounts, bus, webhooks, workerId, leaseMs, driver };
    this.receipts = { db, timeZone, bus, log, monitor, webhooks };
  }

  get size(): number {
    return this.live.size;
  }

  get(deviceId: string): LiveSession | undefined {
    return this.live.get(deviceId);
  }

  sessions(): LiveSession[] {
    return [...this.live.values()];
  }

  /** Whether `entry` is still the session held for its device (a rebuild replaces it). */
  isCurrent(entry: LiveSession): boolean {
    return this.live.get(entry.deviceId) === entry;
  }

  /** Unsaved logins running here that came from login jobs. */
  unsavedLogins(): number {
    return this.sessions().filter((l) => l.accountId === null && l.counted).length;
  }

  /**
   * Starts a session for a device: a login (no account yet), or a saved account restored from its
   * stored session. A session that does not start is dropped, and its owner hears why.
   */
  async start(
    deviceId: string,
    userId: number,
    accountId: number | null,
    pairingNumber: string | null,
    proxyValue: string | null,
    counted = false,
    engine: Engine | null = null,
    reconnects = 0,
  ): Promise<void> {
    const { driver, bus, log, pendingTtlMs } = this.deps;
    let entry: LiveSession | null = null;
    const session = watchSession(
      driver.createSession({ clientId: deviceId, pairingNumber, proxy: parseProxy(proxyValue), engine }),
      {
        timeoutMs: this.deps.sendTimeoutMs,
        stuckAfter: this.deps.stuckAfter,
        onStuck: (timeouts) => {
          if (entry) void this.unstick(entry, timeouts);
        },
      },
    );
    const base: Omit<LiveSession, 'loops' | 'receipts'> = {
      deviceId,
      userId,
      session,
      accountId,
      state: 'unknown',
      qr: null,
      code: null,
      info: null,
      qrWaiters: [],
      unsubscribe: async () => {},
      startedAt: Date.now(),
      rebuilds: 0,
      reconnects,
      engine,
      deadline: Date.now() + pendingTtlMs,
      codeShown: false,
      counted,
    };
    // one object: the loops and the receipts read the account id the session gets when its login is saved
    const live: LiveSession = Object.assign(base, {
      loops: new AccountLoops(this.deps, base),
      receipts: new SessionReceipts(this.receipts, base, () => this.isCurrent(live)),
    });
    entry = live;
    this.live.set(deviceId, live);
    session.on((event) => {
      void onDriverEvent(this.events, live, event).catch((err) =>
        log.error({ err, deviceId, event: event.type }, 'session event failed'),
      );
    });
    live.unsubscribe = await bus.subscribe(deviceChannel(deviceId), (message) => {
      void onDeviceRequest(this.commands, live, message).catch((err) =>
        log.error({ err, deviceId }, 'device request failed'),
      );
    });
    try {
      await session.start();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log.warn({ deviceId, err: message }, 'session did not start');
      // a login that cannot start is over: qr-new-client and the create page hear why at once
      if (accountId === null) return failLogin(this.events, live, message);
      await this.emit(live, 'error', { deviceId, message });
      await this.setState(live, 'disconnected');
      // a saved account whose restore failed is down until a sweep or a reconnect tries again
      hookFor(this.deps.webhooks, live, 'account.state', { state: 'disconnected', message });
      await this.drop(deviceId, { keepStored: true, release: true });
    }
  }

  /**
   * Stops and forgets a session. An unsaved login ends with it (it stops counting against its
   * user and the workers), except when the session is rebuilt in place.
   */
  async drop(deviceId: string, opts: DropOptions): Promise<void> {
    const entry = this.live.get(deviceId);
    if (!entry) return;
    const { accounts, logins, store, workerId } = this.deps;
    this.live.delete(deviceId);
    // its receipts waiting to be settled go with it, as they always did (a session no longer held settles none)
    entry.receipts.close();
    // the message in flight finishes first; a blast still 'sending' resumes wherever the account goes
    await entry.loops.close();
    if (entry.accountId === null && !opts.rebuild) await logins.end(deviceId).catch(() => {});
    // a login that failed tells its waiting `qr` requests why (login-failure.ts)
    for (const w of entry.qrWaiters) w(opts.failure ?? { ok: false, error: 'The session was closed.' });
    entry.qrWaiters = [];
    await entry.unsubscribe().catch(() => {});
    await entry.session.destroy().catch(() => {});
    if (!opts.keepStored) await store.delete(deviceId).catch(() => {});
    if (opts.release && entry.accountId !== null) await accounts.releaseLease(entry.accountId, workerId);
  }

  /**
   * The watchdog's call: a connected session whose sends or checks timed out `timeouts` times in a
   * row says connected but does not answer. It is rebuilt in place from its stored session (at most
   * MAX_REBUILDS times in a row, as a broken client), which the lists hear as `reconnecting`.
   */
  private async unstick(entry: LiveSession, timeouts: number): Promise<void> {
    if (!this.isCurrent(entry) || entry.state !== 'connected') return;
    this.deps.log.warn({ deviceId: entry.deviceId, timeouts }, 'session stuck: its calls time out; rebuilding it');
    await this.rebuild(entry, MAX_REBUILDS).catch((err) =>
      this.deps.log.error({ err, deviceId: entry.deviceId }, 'stuck session not rebuilt'),
    );
  }

  /**
   * Rebuilds a session in place from its stored session: a broken client (at most `limit` times
   * in a row, and not while the host stops), or a reconnect someone asked for (`limit` null).
   */
  async rebuild(entry: LiveSession, limit: number | null): Promise<void> {
    const { deviceId, userId, accountId, rebuilds, counted, engine } = entry;
    const was = entry.state;
    // one more attempt: the monitor's 'reconnect N times', carried to the rebuilt session
    entry.reconnects += 1;
    await this.setState(entry, 'reconnecting...');
    await this.emit(entry, 'reconnecting', { deviceId, state: 'reconnecting...' });
    if (was !== 'reconnecting...') hookFor(this.deps.webhooks, entry, 'account.state', { state: 'reconnecting...' });
    const again = limit === null || (rebuilds < limit && !this.stopped);
    await this.drop(deviceId, { keepStored: true, release: false, rebuild: again });
    if (!again) return;
    const proxy = accountId === null ? null : await this.deps.accounts.proxyOf(accountId);
    await this.start(deviceId, userId, accountId, null, proxy, counted, engine, entry.reconnects);
    const next = this.live.get(deviceId);
    if (next && limit !== null) next.rebuilds = rebuilds + 1;
  }

  /**
   * The session's state, recorded on its account (AccountsRepo.applySessionState keeps a suspension).
   * A state that is neither connected nor coming back ends the account's blast and one-off sends (a
   * rebuild in place keeps both); a blast it ends is told to the webhooks as finished: `suspended`
   * when WhatsApp suspended the account, `error` when the session went down.
   */
  async setState(entry: LiveSession, state: HeldState): Promise<void> {
    entry.state = state;
    const { accountId } = entry;
    if (accountId === null) return;
    const { accounts, db, webhooks } = this.deps;
    const down = state !== 'connected' && state !== 'reconnecting...';
    // a running blast ends through the guarded switch first: of this, the loop's own end, a pause
    // and a stop, only the one that flips it tells the webhooks (one blast.finished per run)
    const ended = down ? await accounts.stopSending(accountId) : null;
    await accounts.applySessionState(accountId, state);
    if (!down) return;
    await stopSends(db, accountId);
    if (!ended) return;
    if (state === 'suspended') hookFor(webhooks, entry, 'blast.finished', { reason: 'suspended', message: SUSPENDED });
    else {
      const message = `${entry.info?.phonenumber ?? entry.deviceId} is ${state}`;
      hookFor(webhooks, entry, 'blast.finished', { reason: 'error', message });
    }
  }

  emit<E extends LiveEvent>(entry: LiveSession, event: E, payload: LiveEventMap[E], admins = true): Promise<void> {
    return emitFor(this.deps.bus, entry, event, payload, admins);
  }

  /**
   * An unsaved login showed a sign of life: its first code (the browser's countdown starts there)
   * or the phone's scan. Later QR refreshes do not count, so a page left open cannot keep a browser
   * alive forever.
   */
  async touch(entry: LiveSession): Promise<void> {
    if (entry.accountId !== null) return;
    const { logins, pendingTtlMs } = this.deps;
    entry.deadline = Date.now() + pendingTtlMs;
    await logins.extend(entry.deviceId, pendingTtlMs);
  }
}
