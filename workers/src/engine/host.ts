import { hostname } from 'node:os';
import { AccountsRepo } from '@wa/core/accounts/accounts.repo';
import { type Db, rows } from '@wa/core/db/client';
import { OPEN_SESSION_JOB, type OpenSessionJob } from '@wa/core/jobs/names';
import type { Logger } from '@wa/core/logger';
import type { EventBus } from '@wa/core/realtime/bus';
import { publishToAdmins, publishToOwnerAndAdmins, publishToUser } from '@wa/core/realtime/publish';
import { type DeviceReply, type DeviceRequest, deviceChannel } from '@wa/core/realtime/rpc';
import type { LiveEvent, LiveEventMap } from '@wa/shared';
import { sql } from 'drizzle-orm';
import {
  type ClientInfo,
  type DriverEvent,
  type DriverState,
  type ProxyConfig,
  SendError,
  type SessionStore,
  type WhatsAppDriver,
  type WhatsAppSession,
} from '../drivers/types';
import { BlastRunner } from './blast';
import { SendRunner } from './send';
import { hasUnfinishedSend, stopSends } from './send.repo';
import { ToolRunner } from './tools';

export { OPEN_SESSION_JOB, type OpenSessionJob };

/** One live session held by this process. */
interface Live {
  deviceId: string;
  userId: number;
  session: WhatsAppSession;
  /** the saved account's id once the account row exists */
  accountId: number | null;
  state: DriverState | 'reconnecting...';
  qr: string | null;
  code: string | null;
  info: ClientInfo | null;
  /** waiting `qr` requests, answered when a code appears */
  qrWaiters: Array<(reply: DeviceReply) => void>;
  unsubscribe: () => Promise<void>;
  startedAt: number;
  rebuilds: number;
  /** the account's blast loop, while one runs here */
  blast: BlastRunner | null;
  /** the account's one-off sends (the blaster form), while they run here */
  sends: SendRunner | null;
  /** an unsaved login is dropped after this (ms epoch); see SessionHost.touch */
  deadline: number;
  /** whether the login has shown its first QR or pairing code */
  codeShown: boolean;
  /**
   * started by a login job: counts against the host's maxPendingLogins while unsaved, as its
   * whatsapp_logins row counts at the API (a direct `open` counts in neither)
   */
  counted: boolean;
  /** generators and validators running on this account, by `${kind}:${id}` */
  tools: Map<string, ToolRunner>;
}

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
  /** DATA_DIR, where template media live */
  dataDir?: string;
  /** milliseconds in one second of a blast interval (tests shorten it) */
  blastSecondMs?: number;
}

/** Parses a stored proxy value (`[scheme://][user:pass@]host:port`) for a driver. */
export function parseProxy(value: string | null | undefined): ProxyConfig | null {
  if (!value) return null;
  const m =
    /^(?:(https?|socks4|socks5):\/\/)?(?:([^\s:@/]+):([^\s@/]+)@)?([^\s:@/]+|\[[0-9a-fA-F:]+\]):(\d{1,5})$/i.exec(
      value.trim(),
    );
  if (!m) return null;
  const protocol = (m[1]?.toLowerCase() ?? 'http') as ProxyConfig['protocol'];
  return {
    protocol,
    host: m[4] ?? '',
    port: Number(m[5]),
    ...(m[2] ? { username: m[2], password: m[3] ?? '' } : {}),
  };
}

/**
 * Holds live WhatsApp sessions in this process. Every account with a stored session is held by
 * exactly one host at a time, through a lease on its row (`worker_id`, `lease_until`) that the
 * holder renews; a host that dies stops renewing, and another host's sweep claims the account
 * and restores it from the stored session, with no new QR scan. Requests from the API reach the
 * holder on the device's bus channel.
 */
export class SessionHost {
  readonly workerId: string;
  private readonly live = new Map<string, Live>();
  private readonly accounts: AccountsRepo;
  private readonly leaseMs: number;
  private readonly sweepMs: number;
  private readonly pendingTtlMs: number;
  private readonly maxPendingLogins: number;
  /** login jobs between their cap check and their session, so concurrent jobs cannot overshoot */
  private reservedLogins = 0;
  private readonly claimBatch: number;
  private timers: NodeJS.Timeout[] = [];
  private stopped = false;
  private sweeping = false;
  private takeOver: boolean;

  constructor(private readonly o: HostOptions) {
    this.workerId = o.workerId ?? `${hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    this.leaseMs = o.leaseMs ?? 30_000;
    this.sweepMs = o.sweepMs ?? 10_000;
    this.pendingTtlMs = o.pendingTtlMs ?? 120_000;
    this.maxPendingLogins = o.maxPendingLogins ?? 20;
    this.claimBatch = o.claimBatch ?? 100;
    this.takeOver = o.exclusive ?? false;
    this.accounts = new AccountsRepo(o.db);
  }

  get size(): number {
    return this.live.size;
  }

  states(): Record<string, string> {
    return Object.fromEntries([...this.live.values()].map((l) => [l.deviceId, l.state]));
  }

  async start(): Promise<void> {
    const renew = setInterval(
      () => void this.renew().catch((err) => this.o.log.error({ err }, 'lease renewal failed')),
      Math.max(1000, Math.floor(this.leaseMs / 3)),
    );
    const sweep = setInterval(
      () => void this.sweep().catch((err) => this.o.log.error({ err }, 'sweep failed')),
      this.sweepMs,
    );
    renew.unref();
    sweep.unref();
    this.timers.push(renew, sweep);
    await this.heartbeat();
    await this.sweep();
  }

  /**
   * Tells the API this host is alive and how many unsaved logins it takes, for as long as a lease
   * lasts: new-client is refused up front when every live host is full.
   */
  private async heartbeat(): Promise<void> {
    await this.o.db.execute(sql`
      insert into whatsapp_workers (worker_id, max_logins, expires_at)
      values (${this.workerId}, ${this.maxPendingLogins}, now() + ${this.leaseMs} * interval '1 millisecond')
      on conflict (worker_id) do update set max_logins = excluded.max_logins, expires_at = excluded.expires_at`);
  }

  /** Unsaved logins running here that came from login jobs. */
  private unsavedLogins(): number {
    let n = 0;
    for (const l of this.live.values()) if (l.accountId === null && l.counted) n++;
    return n;
  }

  /** Stops every session (the stored sessions stay) and frees the leases for other hosts. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    const ids = [...this.live.keys()];
    await Promise.all(ids.map((id) => this.drop(id, { keepStored: true, release: false })));
    await this.o.db.execute(sql`delete from whatsapp_workers where worker_id = ${this.workerId}`).catch(() => {});
    if (ids.length) await this.accounts.releaseLeases(this.workerId);
  }

  /**
   * Begins a login for a new device (or takes over a device id again) outside the caps: tests and
   * demos start sessions this way; users go through new-client and `openLogin`.
   */
  async open(job: OpenSessionJob, counted = false): Promise<void> {
    if (this.stopped) throw new Error('host is stopping');
    if (this.live.has(job.deviceId)) return;
    await this.startSession(job.deviceId, job.userId, null, job.pairingNumber ?? null, job.proxy ?? null, counted);
  }

  /**
   * The session.open job: begins the login new-client recorded, unless this host already runs its
   * maximum of unsaved logins ('full': another host should take it) or the login is over before any
   * host took it ('gone': removed, or run out while queued).
   */
  async openLogin(job: OpenSessionJob): Promise<'started' | 'full' | 'gone'> {
    if (this.stopped) throw new Error('host is stopping');
    if (this.live.has(job.deviceId)) return 'started';
    if (this.unsavedLogins() + this.reservedLogins >= this.maxPendingLogins) return 'full';
    this.reservedLogins++;
    let claimed: { device_id: string }[];
    try {
      claimed = await rows<{ device_id: string }>(
        this.o.db,
        sql`update whatsapp_logins
            set worker_id = ${this.workerId}, expires_at = now() + ${this.pendingTtlMs} * interval '1 millisecond'
            where device_id = ${job.deviceId} and expires_at > now()
              and (worker_id is null or worker_id = ${this.workerId})
            returning device_id`,
      );
    } finally {
      this.reservedLogins--;
    }
    if (!claimed.length) return 'gone';
    // no await before the session is in `live`: the next job's cap check sees it
    await this.open(job, true);
    return 'started';
  }

  /** A login no host would take: it stops counting, and the create page hears why. */
  async refuseLogin(job: OpenSessionJob, message: string): Promise<void> {
    await this.o.db.execute(sql`delete from whatsapp_logins where device_id = ${job.deviceId}`);
    await publishToUser(this.o.bus, job.userId, 'error', { deviceId: job.deviceId, message });
  }

  /**
   * An unsaved login showed a sign of life: its first code (the browser's countdown starts there)
   * or the phone's scan. Later QR refreshes do not count, so a page left open cannot keep a browser
   * alive forever.
   */
  private async touch(entry: Live): Promise<void> {
    if (entry.accountId !== null) return;
    entry.deadline = Date.now() + this.pendingTtlMs;
    await this.o.db.execute(sql`
      update whatsapp_logins set expires_at = now() + ${this.pendingTtlMs} * interval '1 millisecond'
      where device_id = ${entry.deviceId}`);
  }

  // ---- sessions ---------------------------------------------------------------------------

  private async startSession(
    deviceId: string,
    userId: number,
    accountId: number | null,
    pairingNumber: string | null,
    proxyValue: string | null,
    counted = false,
  ): Promise<void> {
    const session = this.o.driver.createSession({ clientId: deviceId, pairingNumber, proxy: parseProxy(proxyValue) });
    const entry: Live = {
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
      blast: null,
      sends: null,
      deadline: Date.now() + this.pendingTtlMs,
      codeShown: false,
      counted,
      tools: new Map(),
    };
    this.live.set(deviceId, entry);
    session.on((event) => {
      void this.onDriverEvent(entry, event).catch((err) =>
        this.o.log.error({ err, deviceId, event: event.type }, 'session event failed'),
      );
    });
    entry.unsubscribe = await this.o.bus.subscribe(deviceChannel(deviceId), (message) => {
      void this.onRequest(entry, message as DeviceRequest).catch((err) =>
        this.o.log.error({ err, deviceId }, 'device request failed'),
      );
    });
    try {
      await session.start();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.o.log.warn({ deviceId, err: message }, 'session did not start');
      await this.emit(entry, 'error', { deviceId, message });
      await this.setState(entry, 'disconnected');
      await this.drop(deviceId, { keepStored: true, release: true });
    }
  }

  /**
   * Stops and forgets a session. An unsaved login ends with it (it stops counting against its
   * user and the workers), except when the session is rebuilt in place.
   */
  private async drop(
    deviceId: string,
    opts: { keepStored: boolean; release: boolean; rebuild?: boolean },
  ): Promise<void> {
    const entry = this.live.get(deviceId);
    if (!entry) return;
    this.live.delete(deviceId);
    // the message in flight finishes first; a blast still 'sending' resumes wherever the account goes
    await Promise.all([entry.blast?.stop(), entry.sends?.stop(), ...[...entry.tools.values()].map((t) => t.stop())]);
    entry.blast = null;
    entry.sends = null;
    if (entry.accountId === null && !opts.rebuild) {
      await this.o.db.execute(sql`delete from whatsapp_logins where device_id = ${deviceId}`).catch(() => {});
    }
    entry.tools.clear();
    for (const w of entry.qrWaiters) w({ ok: false, error: 'The session was closed.' });
    entry.qrWaiters = [];
    await entry.unsubscribe().catch(() => {});
    await entry.session.destroy().catch(() => {});
    if (!opts.keepStored) await this.o.store.delete(deviceId).catch(() => {});
    if (opts.release && entry.accountId !== null) await this.accounts.releaseLease(entry.accountId, this.workerId);
  }

  private async emit<E extends LiveEvent>(entry: Live, event: E, payload: LiveEventMap[E], admins = true) {
    if (admins) await publishToOwnerAndAdmins(this.o.bus, entry.userId, event, payload);
    else await publishToUser(this.o.bus, entry.userId, event, payload);
  }

  private async setState(entry: Live, state: DriverState | 'reconnecting...') {
    entry.state = state;
    if (entry.accountId === null) return;
    await this.accounts.applySessionState(entry.accountId, state);
    // one-off sends end with the connection, as a blast does (a rebuild in place keeps both)
    if (state !== 'connected' && state !== 'reconnecting...') await stopSends(this.o.db, entry.accountId);
  }

  private async onDriverEvent(entry: Live, event: DriverEvent): Promise<void> {
    const { deviceId } = entry;
    if (this.live.get(deviceId) !== entry) return;
    switch (event.type) {
      case 'qr':
      case 'code': {
        if (event.type === 'qr') entry.qr = event.qr;
        else entry.code = event.code;
        if (!entry.codeShown) {
          entry.codeShown = true;
          await this.touch(entry);
        }
        const data = { deviceId, qr: entry.qr, code: entry.code };
        for (const w of entry.qrWaiters) w({ ok: true, data });
        entry.qrWaiters = [];
        await this.emit(
          entry,
          event.type,
          event.type === 'qr' ? { deviceId, qr: event.qr } : { deviceId, code: event.code },
          false,
        );
        return;
      }
      case 'authenticated':
        entry.qr = null;
        entry.code = null;
        // scanned: the browser saves as soon as it hears `authenticated`, however late in its countdown
        await this.touch(entry);
        return;
      case 'ready': {
        entry.info = event.info;
        if (entry.accountId !== null) {
          await this.accounts.recordClientInfo(entry.accountId, event.info);
        } else {
          await this.touch(entry);
          // §4 Account creation flow: the browser saves the account when it hears this
          await this.emit(entry, 'authenticated', { deviceId, clientInfo: event.info }, false);
        }
        return;
      }
      case 'state': {
        await this.setState(entry, event.state);
        if (event.state === 'connected') await this.resumeLoops(entry);
        else
          await Promise.all([
            entry.blast?.stop(0),
            entry.sends?.stop(0),
            ...[...entry.tools.values()].map((t) => t.stop(0)),
          ]);
        if (event.state === 'suspended' && entry.accountId !== null) {
          const count = await this.accounts.suspend(entry.accountId);
          await this.emit(entry, 'suspended', { deviceId, suspended_count: count, state: 'suspended' });
          return;
        }
        await this.emit(entry, 'connection.update', { deviceId, state: event.state });
        if (event.state === 'loggedOut' || event.state === 'conflict') {
          // the stored session is gone (or unusable): the account needs a new login
          await this.drop(deviceId, { keepStored: false, release: true });
        }
        return;
      }
      case 'auth_failure':
        await this.setState(entry, 'loggedOut');
        await this.emit(entry, 'connection.update', { deviceId, state: 'loggedOut', message: event.message });
        await this.drop(deviceId, { keepStored: false, release: true });
        return;
      case 'broken': {
        // the client must be rebuilt: restore it from the stored session in place
        this.o.log.warn({ deviceId, message: event.message }, 'session broken, rebuilding');
        await this.setState(entry, 'reconnecting...');
        await this.emit(entry, 'reconnecting', { deviceId, state: 'reconnecting...' });
        const { userId, accountId, rebuilds, counted } = entry;
        await this.drop(deviceId, { keepStored: true, release: false, rebuild: rebuilds < 5 && !this.stopped });
        if (rebuilds < 5 && !this.stopped) {
          const proxy = accountId === null ? null : await this.proxyOf(accountId);
          await this.startSession(deviceId, userId, accountId, null, proxy, counted);
          const next = this.live.get(deviceId);
          if (next) next.rebuilds = rebuilds + 1;
        }
        return;
      }
    }
  }

  // ---- requests from the API ----------------------------------------------------------------

  private async onRequest(entry: Live, req: DeviceRequest): Promise<void> {
    if (!req || typeof req.replyTo !== 'string') return;
    const reply = (r: DeviceReply) => this.o.bus.publish(req.replyTo, r);
    // a login in progress answers only its owner, or admin and dev
    if (!req.args?.privileged && Number(req.args?.userId) !== entry.userId) {
      return reply({ ok: false, error: 'You are not allowed to do this.', status: 403 });
    }
    switch (req.op) {
      case 'qr':
        if (entry.qr || entry.code)
          return reply({ ok: true, data: { deviceId: entry.deviceId, qr: entry.qr, code: entry.code } });
        // already logged in (the phone was quick): nothing to scan, the browser heard `authenticated`
        if (entry.state === 'connected' || entry.info) {
          return reply({ ok: true, data: { deviceId: entry.deviceId, qr: null, code: null, state: 'connected' } });
        }
        entry.qrWaiters.push((r) => void reply(r));
        return;
      case 'state': {
        const state =
          this.live.get(entry.deviceId) === entry ? await entry.session.getState().catch(() => entry.state) : 'unknown';
        return reply({ ok: true, data: { state, info: entry.info, workerId: this.workerId } });
      }
      case 'adopt': {
        const accountId = Number(req.args?.accountId);
        if (!Number.isInteger(accountId)) return reply({ ok: false, error: 'accountId is required' });
        entry.accountId = accountId;
        const state = await entry.session.getState().catch(() => entry.state);
        entry.state = state;
        await this.accounts.adopt(accountId, this.workerId, this.leaseMs, state);
        return reply({ ok: true, data: { state, workerId: this.workerId } });
      }
      case 'send': {
        const to = String(req.args?.to ?? '');
        const text = String(req.args?.text ?? '');
        try {
          const res = await entry.session.sendText(to, text);
          return reply({ ok: true, data: { id: res.id } });
        } catch (err) {
          const code = err instanceof SendError ? err.code : 'failed';
          return reply({ ok: false, error: `${code}: ${err instanceof Error ? err.message : String(err)}` });
        }
      }
      case 'remove': {
        // a login that was never saved leaves nothing behind; a saved account keeps its session
        const keepStored = entry.accountId !== null;
        await reply({ ok: true, data: { deviceId: entry.deviceId } });
        await this.drop(entry.deviceId, { keepStored, release: true });
        return;
      }
      case 'activate': {
        const state = await entry.session.getState().catch(() => entry.state);
        await this.setState(entry, state === 'suspended' ? 'connected' : state);
        return reply({ ok: true, data: { state: entry.state } });
      }
      case 'blast': {
        if (entry.accountId === null) return reply({ ok: false, error: 'This account is not saved yet.' });
        if (req.args?.action === 'stop') {
          await entry.blast?.stop(0);
          return reply({ ok: true, data: { deviceId: entry.deviceId, status: 'idle' } });
        }
        const state = await entry.session.getState().catch(() => entry.state);
        if (state !== 'connected') {
          return reply({ ok: false, error: `${entry.info?.phonenumber ?? entry.deviceId} is ${state}`, status: 409 });
        }
        this.blastOf(entry).start();
        return reply({ ok: true, data: { deviceId: entry.deviceId, status: 'sending' } });
      }
      case 'tool': {
        if (req.args?.kind === 'send') {
          // the send-message job's nudge: the account's one-off sends go on here (DeviceOp has no
          // op of their own; a send is one more loop on the account, like a generator)
          if (entry.accountId === null) return reply({ ok: false, error: 'This account is not saved yet.' });
          this.sendsOf(entry).start();
          return reply({ ok: true, data: { deviceId: entry.deviceId } });
        }
        const kind = req.args?.kind === 'validator' ? 'validator' : 'generator';
        const id = Number(req.args?.id);
        if (!Number.isInteger(id)) return reply({ ok: false, error: 'id is required' });
        if (req.args?.action === 'stop') {
          await entry.tools.get(`${kind}:${id}`)?.stop(0);
          return reply({ ok: true, data: { id, status: 'idle' } });
        }
        const state = await entry.session.getState().catch(() => entry.state);
        if (state !== 'connected') {
          return reply({ ok: false, error: `${entry.info?.phonenumber ?? entry.deviceId} is ${state}`, status: 409 });
        }
        this.toolOf(entry, kind, id).start();
        return reply({ ok: true, data: { id, status: 'running' } });
      }
      case 'reconnect': {
        const { deviceId, userId, accountId, counted } = entry;
        await reply({ ok: true, data: { deviceId } });
        await this.setState(entry, 'reconnecting...');
        await this.emit(entry, 'reconnecting', { deviceId, state: 'reconnecting...' });
        await this.drop(deviceId, { keepStored: true, release: false, rebuild: true });
        const proxy = accountId === null ? null : await this.proxyOf(accountId);
        await this.startSession(deviceId, userId, accountId, null, proxy, counted);
        return;
      }
    }
  }

  private blastOf(entry: Live): BlastRunner {
    entry.blast ??= new BlastRunner(
      {
        db: this.o.db,
        log: this.o.log,
        emit: (event, payload, admins) => this.emit(entry, event, payload, admins),
        emitAdmins: (event, payload) => publishToAdmins(this.o.bus, event, payload),
        dataDir: this.o.dataDir ?? 'data',
        secondMs: this.o.blastSecondMs ?? 1000,
      },
      { deviceId: entry.deviceId, accountId: entry.accountId as number, session: entry.session },
    );
    return entry.blast;
  }

  private sendsOf(entry: Live): SendRunner {
    entry.sends ??= new SendRunner(
      {
        db: this.o.db,
        log: this.o.log,
        emit: (event, payload) => this.emit(entry, event, payload),
        secondMs: this.o.blastSecondMs ?? 1000,
      },
      { deviceId: entry.deviceId, accountId: entry.accountId as number, session: entry.session },
    );
    return entry.sends;
  }

  private toolOf(entry: Live, kind: 'generator' | 'validator', id: number): ToolRunner {
    const key = `${kind}:${id}`;
    let runner = entry.tools.get(key);
    if (!runner) {
      runner = new ToolRunner(
        {
          db: this.o.db,
          log: this.o.log,
          emit: (userId, event, payload) => publishToOwnerAndAdmins(this.o.bus, userId, event, payload),
          dataDir: this.o.dataDir ?? 'data',
          secondMs: this.o.blastSecondMs ?? 1000,
        },
        kind,
        id,
        { deviceId: entry.deviceId, session: entry.session },
      );
      entry.tools.set(key, runner);
    }
    return runner;
  }

  /**
   * A connected account whose blast, generators or validators are still switched on (its last
   * holder died, or the connection came back after a rebuild) carries on with them.
   */
  private async resumeLoops(entry: Live): Promise<void> {
    if (entry.accountId === null) return;
    const row = await this.accounts.runSwitches(entry.accountId);
    if (this.live.get(entry.deviceId) !== entry) return;
    if (row?.status === 'sending' && !row.suspended && !entry.blast?.active) {
      this.o.log.info({ deviceId: entry.deviceId }, 'resuming blast');
      this.blastOf(entry).start();
    }
    if (!row?.suspended && !entry.sends?.active && (await hasUnfinishedSend(this.o.db, entry.accountId))) {
      this.sendsOf(entry).start();
    }
    const tools = await rows<{ kind: 'generator' | 'validator'; id: number }>(
      this.o.db,
      sql`select 'generator' as kind, id from generators where whatsapp_id = ${entry.accountId} and status = 'generating'
          union all
          select 'validator' as kind, id from validators where whatsapp_id = ${entry.accountId} and status = 'validating'`,
    );
    for (const t of tools) {
      const runner = this.toolOf(entry, t.kind, t.id);
      if (!runner.active) runner.start();
    }
  }

  private proxyOf(accountId: number): Promise<string | null> {
    return this.accounts.proxyOf(accountId);
  }

  // ---- leases -------------------------------------------------------------------------------

  /** Renews the leases of the accounts held here and lets go of any another host took over. */
  async renew(): Promise<void> {
    if (this.stopped) return;
    await this.heartbeat();
    const held = [...this.live.values()].filter((l) => l.accountId !== null);
    if (held.length) {
      const ids = held.map((l) => l.accountId as number);
      const keep = await this.accounts.renewLeases(ids, this.workerId, this.leaseMs);
      for (const l of held) {
        if (!keep.has(l.accountId as number)) {
          this.o.log.warn({ deviceId: l.deviceId }, 'lease lost to another worker; dropping the session here');
          await this.drop(l.deviceId, { keepStored: true, release: false });
        }
      }
    }
    // logins that were never saved end once their code has run out (see touch)
    const now = Date.now();
    for (const l of [...this.live.values()]) {
      if (l.accountId !== null || now <= l.deadline) continue;
      // saved a moment ago: the API's adopt is on its way
      if (!(await this.accounts.isSaved(l.deviceId)))
        await this.drop(l.deviceId, { keepStored: false, release: false });
    }
    // what hosts that died left behind counts for nobody; these rows only tidy up
    await this.o.db.execute(sql`delete from whatsapp_logins where expires_at < now()`);
    await this.o.db.execute(sql`delete from whatsapp_workers where expires_at < now()`);
  }

  /** Claims accounts whose lease ran out (their host died) and restores them here. */
  async sweep(): Promise<void> {
    if (this.stopped || this.sweeping) return;
    this.sweeping = true;
    try {
      // batch after batch while there is more, so a host that starts alone takes every account
      for (let round = 0; round < 1000 && !this.stopped; round++) {
        if ((await this.sweepOnce()) < this.claimBatch) break;
      }
      this.takeOver = false;
    } finally {
      this.sweeping = false;
    }
  }

  private async sweepOnce(): Promise<number> {
    {
      const claimed = await this.accounts.claimExpired({
        workerId: this.workerId,
        leaseMs: this.leaseMs,
        takeOver: this.takeOver,
        limit: this.claimBatch,
      });
      for (const c of claimed) {
        if (this.stopped) break;
        if (this.live.has(c.clientid)) {
          const l = this.live.get(c.clientid);
          if (l) l.accountId = c.id;
          continue;
        }
        this.o.log.info({ deviceId: c.clientid }, 'restoring session');
        await publishToOwnerAndAdmins(this.o.bus, c.user_id, 'reconnecting', {
          deviceId: c.clientid,
          state: 'reconnecting...',
        });
        await this.startSession(c.clientid, c.user_id, c.id, null, c.proxy);
      }
      return claimed.length;
    }
  }
}
