import { hostname } from 'node:os';
import { AccountsRepo } from '@wa/core/accounts/accounts.repo';
import { DEFAULT_TIMEZONE } from '@wa/core/config';
import { DEFAULT_ENGINE_SETTINGS } from '@wa/core/config-engine';
import { type Db, rows } from '@wa/core/db/client';
import { DependencyMonitor } from '@wa/core/dependencies';
import type { FileStore } from '@wa/core/files/file-store';
import { defaultFileStore } from '@wa/core/files/legacy-uploads';
import { OPEN_SESSION_JOB, type OpenSessionJob } from '@wa/core/jobs/names';
import type { Logger } from '@wa/core/logger';
import type { EventBus } from '@wa/core/realtime/bus';
import { withMonitor } from '@wa/core/realtime/monitor-fields';
import { publishToAdmins, publishToUser } from '@wa/core/realtime/publish';
import { NO_WEBHOOKS, type WebhookEmitter } from '@wa/core/webhooks/webhooks';
import { sql } from 'drizzle-orm';
import type { SessionStore, WhatsAppDriver } from '../drivers/types';
import { AccountSafety } from './account-safety';
import { EngineMetrics } from './engine-metrics';
import { LeaseSweeper } from './lease-sweeper';
import { LocalFiles } from './local-files';
import { LoginsRepo } from './logins.repo';
import { OutcomeBatcher } from './outcome-batcher';
import { checkProxies, type ProxyCheckOptions } from './proxy-health';
import { SessionRegistry } from './session-registry';

export { OPEN_SESSION_JOB, type OpenSessionJob };

export interface HostOptions {
  db: Db;
  bus: EventBus;
  driver: WhatsAppDriver;
  store: SessionStore;
  log: Logger;
  workerId?: string;
  /** how long a lease lasts without renewal; a dead host's accounts move after this */
  leaseMs?: number;
  /** how often expired leases are looked for */
  sweepMs?: number;
  /**
   * how long an unsaved login lives after its last sign of life: its start, its first code (the
   * browser's 60 s QR or 90 s pairing countdown starts there), the phone's scan. 120 s by default:
   * past the longest countdown with time to save a login scanned at its last second.
   */
  pendingTtlMs?: number;
  /** unsaved logins this host runs at once (each a browser); a login job past it goes to another host */
  maxPendingLogins?: number;
  /** accounts claimed per sweep, so several hosts share a dead host's accounts */
  claimBatch?: number;
  /** the only host there is (embedded mode): at start it takes every account at once, without
   * waiting for the leases of its own previous run to run out */
  exclusive?: boolean;
  /** DATA_DIR: this worker's cache of template media ('data' when absent) */
  dataDir?: string;
  /** where template media and validator files are kept (the database, with the legacy disk fallback, when absent) */
  files?: FileStore;
  /** APP_TIMEZONE (Asia/Jakarta when absent) */
  timeZone?: string;
  /** milliseconds in one second of a blast interval (tests shorten it) */
  blastSecondMs?: number;
  /** a send or number check past this has timed out (WA_SEND_TIMEOUT_MS) */
  sendTimeoutMs?: number;
  /** timeouts in a row after which a connected session is rebuilt (WA_STUCK_AFTER) */
  stuckAfter?: number;
  /** the proxy health check (PROXY_CHECK_*); off without a URL */
  proxyCheck?: ProxyCheckOptions | null;
  /** the process's webhooks (none when absent) */
  webhooks?: WebhookEmitter;
  /** the process's view of its dependencies (made here, probing the database and the bus, when absent) */
  monitor?: DependencyMonitor;
}

/**
 * Holds live WhatsApp sessions in this process. Every account with a stored session is held by
 * exactly one host at a time, through a lease on its row that the holder renews; a host that dies
 * stops renewing, and another host's sweep claims the account and restores it from the stored
 * session, with no new QR scan. Requests from the API reach the holder on the device's bus channel.
 *
 * The host composes the parts and takes the logins: SessionRegistry (the sessions held here),
 * driver-events.ts (what a session's events do), device-commands.ts (the API's requests),
 * LeaseSweeper (leases and the sweep), AccountLoops (an account's blast, sends and tools).
 */
export class SessionHost {
  readonly workerId: string;
  /** this engine's own Prometheus metrics (claim latency, sessions held) */
  readonly metrics: EngineMetrics;
  /** what the loops wait for when the database or Redis is away */
  readonly monitor: DependencyMonitor;
  private readonly registry: SessionRegistry;
  private readonly leases: LeaseSweeper;
  private readonly logins: LoginsRepo;
  private readonly accounts: AccountsRepo;
  /** how long an unsaved login lives after its last sign of life */
  private readonly pendingTtlMs: number;
  private readonly maxPendingLogins: number;
  /** login jobs between their cap check and their session, so concurrent jobs cannot overshoot */
  private reservedLogins = 0;

  constructor(private readonly options: HostOptions) {
    const o = options;
    this.workerId = o.workerId ?? `${hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    const d = DEFAULT_ENGINE_SETTINGS;
    this.maxPendingLogins = o.maxPendingLogins ?? d.workerMaxLogins;
    this.logins = new LoginsRepo(o.db);
    const accounts = new AccountsRepo(o.db);
    this.accounts = accounts;
    this.pendingTtlMs = o.pendingTtlMs ?? d.loginTtlMs;
    const timeZone = o.timeZone ?? DEFAULT_TIMEZONE;
    const webhooks = o.webhooks ?? NO_WEBHOOKS;
    this.metrics = new EngineMetrics(() => this.registry.size);
    const leaseMs = o.leaseMs ?? d.leaseMs;
    this.monitor =
      o.monitor ??
      new DependencyMonitor(
        {
          database: () => rows(o.db, sql`select 1`),
          ...(o.bus.kind === 'redis' ? { redis: () => o.bus.ping() } : {}),
        },
        o.log,
      );
    const safety = new AccountSafety({
      db: o.db,
      accounts,
      log: o.log,
      timeZone,
      emitAdmins: (event, payload) => publishToAdmins(o.bus, event, payload),
      webhooks,
    });
    this.registry = new SessionRegistry({
      db: o.db,
      bus: o.bus,
      driver: o.driver,
      store: o.store,
      log: o.log,
      accounts,
      safety,
      outcomes: new OutcomeBatcher(o.db, o.log),
      logins: this.logins,
      workerId: this.workerId,
      leaseMs,
      monitor: this.monitor,
      stillHeld: async (id) => (await accounts.renewLeases([id], this.workerId, leaseMs)).has(id),
      pendingTtlMs: this.pendingTtlMs,
      files: new LocalFiles(o.files ?? defaultFileStore(o.db, o.dataDir ?? 'data'), o.dataDir ?? 'data'),
      secondMs: o.blastSecondMs ?? d.blastSecondMs,
      timeZone,
      sendTimeoutMs: o.sendTimeoutMs ?? d.sendTimeoutMs,
      stuckAfter: o.stuckAfter ?? d.stuckAfter,
      webhooks,
      metrics: this.metrics,
    });
    this.leases = new LeaseSweeper(
      {
        sessions: this.registry,
        accounts,
        logins: this.logins,
        db: o.db,
        bus: o.bus,
        log: o.log,
        monitor: this.monitor,
        webhooks,
        workerId: this.workerId,
        leaseMs,
      },
      {
        sweepMs: o.sweepMs ?? d.sweepMs,
        claimBatch: o.claimBatch ?? 100,
        maxPendingLogins: this.maxPendingLogins,
        exclusive: o.exclusive ?? false,
      },
    );
  }

  get size(): number {
    return this.registry.size;
  }

  /** Each held session's state by device id (the dev monitor). */
  states(): Record<string, string> {
    return Object.fromEntries(this.registry.sessions().map((l) => [l.deviceId, l.state]));
  }

  /** Whether the account's blast loop runs here (a stop or an end may still be finishing it otherwise). */
  blasting(deviceId: string): boolean {
    return this.registry.get(deviceId)?.loops.blasting ?? false;
  }

  private proxyTimer: NodeJS.Timeout | null = null;

  /**
   * Checks the proxies due, once a minute (or as often as each is due when that is sooner): every
   * worker does, and the claim in checkProxies gives each proxy to one of them.
   */
  private startProxyChecks(): void {
    const check = this.options.proxyCheck;
    if (!check?.url || this.proxyTimer) return;
    const { db, log } = this.options;
    const sweep = () => void checkProxies(db, check, log).catch((err) => log.warn({ err }, 'proxy check failed'));
    this.proxyTimer = setInterval(sweep, Math.min(check.everyMs, 60_000));
    this.proxyTimer.unref();
    sweep();
  }

  /** Announces this host and takes the accounts no live host holds. */
  start(): Promise<void> {
    this.startProxyChecks();
    return this.leases.start();
  }

  /** Stops every session (the stored sessions stay) and frees the leases for other hosts. */
  async stop(): Promise<void> {
    this.registry.stopped = true;
    this.leases.stop();
    this.monitor.close();
    if (this.proxyTimer) clearInterval(this.proxyTimer);
    const held = this.registry.sessions();
    await this.registry.failedLogins.close();
    await Promise.all(held.map((l) => this.registry.drop(l.deviceId, { keepStored: true, release: false })));
    await this.logins.removeWorker(this.workerId).catch(() => {});
    if (held.length) await this.accounts.releaseLeases(this.workerId);
  }

  /** Renews this host's leases now (the timer does it every third of a lease). */
  renew(): Promise<void> {
    return this.leases.renew();
  }

  /** Sweeps for accounts whose holder died now (the timer does it every `sweepMs`). */
  sweep(): Promise<void> {
    return this.leases.sweep();
  }

  /**
   * Begins a login for a new device (or takes over a device id again) outside the caps: tests and
   * demos start sessions this way; users go through new-client and `openLogin`.
   */
  async open(job: OpenSessionJob, counted = false): Promise<void> {
    if (this.registry.stopped) throw new Error('host is stopping');
    if (this.registry.get(job.deviceId)) return;
    const { deviceId, userId } = job;
    // the device starts again here: an earlier failure of it no longer answers for it (not awaited:
    // openLogin's cap check needs the session registered before anything else runs)
    void this.registry.failedLogins.forget(deviceId);
    await this.registry.start(
      deviceId,
      userId,
      null,
      job.pairingNumber ?? null,
      job.proxy ?? null,
      counted,
      job.engine ?? null,
    );
  }

  /**
   * The session.open job: begins the login new-client recorded, unless this host already runs its
   * maximum of unsaved logins ('full': another host should take it) or the login is over before any
   * host took it ('gone': removed, or run out while queued).
   */
  async openLogin(job: OpenSessionJob): Promise<'started' | 'full' | 'gone'> {
    if (this.registry.stopped) throw new Error('host is stopping');
    if (this.registry.get(job.deviceId)) return 'started';
    if (this.registry.unsavedLogins() + this.reservedLogins >= this.maxPendingLogins) return 'full';
    this.reservedLogins++;
    let claimed: boolean;
    try {
      claimed = await this.logins.claim(job.deviceId, this.workerId, this.pendingTtlMs);
    } finally {
      this.reservedLogins--;
    }
    if (!claimed) return 'gone';
    // no await before the session is in the registry: the next job's cap check sees it
    await this.open(job, true);
    return 'started';
  }

  /** A login no host would take: it stops counting, and the create page hears why. */
  async refuseLogin(job: OpenSessionJob, message: string): Promise<void> {
    await this.logins.end(job.deviceId);
    // qr-new-client, waiting for a code, hears the refusal as new-client would have said it (429)
    const refusal = { ok: false as const, error: message, status: 429 };
    if (!this.registry.stopped) {
      await this.registry.failedLogins.remember(this.options.bus, job.deviceId, job.userId, refusal);
    }
    const login = {
      id: null,
      userId: job.userId,
      deviceId: job.deviceId,
      state: null,
      status: 'idle' as const,
      number: null,
      reconnects: 0,
    };
    const payload = withMonitor(login, 'error', { deviceId: job.deviceId, message });
    await publishToUser(this.options.bus, job.userId, 'error', payload);
  }
}
