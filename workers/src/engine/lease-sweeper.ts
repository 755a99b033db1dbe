import type { AccountsRepo } from '@wa/core/accounts/accounts.repo';
import type { Db } from '@wa/core/db/client';
import type { DependencyMonitor } from '@wa/core/dependencies';
import type { Logger } from '@wa/core/logger';
import type { EventBus } from '@wa/core/realtime/bus';
import { withMonitor } from '@wa/core/realtime/monitor-fields';
import { publishToOwnerAndAdmins } from '@wa/core/realtime/publish';
import type { WebhookEmitter } from '@wa/core/webhooks/webhooks';
import { hookFor, type LiveSession } from './live-session';
import type { LoginsRepo } from './logins.repo';
import { settleUndelivered } from './receipts.repo';
import type { HeldSessions } from './session-ports';

/**
 * What the lease sweeper uses: the sessions held here, the account rows whose leases it renews and
 * claims, this worker's heartbeat, the bus and webhooks a restore tells, and the monitor that logs
 * an outage. The host builds it.
 */
export interface LeasePorts {
  sessions: HeldSessions;
  accounts: Pick<AccountsRepo, 'renewLeases' | 'switchesOf' | 'claimExpired' | 'isSaved'>;
  logins: Pick<LoginsRepo, 'heartbeat' | 'purgeExpired'>;
  /** for settleUndelivered */
  db: Db;
  bus: EventBus;
  log: Logger;
  monitor: Pick<DependencyMonitor, 'classify' | 'markDown' | 'waitingFor'>;
  webhooks: WebhookEmitter;
  workerId: string;
  leaseMs: number;
}

export interface LeaseOptions {
  /** how often expired leases are looked for */
  sweepMs: number;
  /** accounts claimed per sweep, so several hosts share a dead host's accounts */
  claimBatch: number;
  /** unsaved logins this host takes, announced with its heartbeat */
  maxPendingLogins: number;
  /** the only host there is: its first sweep takes every account, live lease or not */
  exclusive: boolean;
}

/**
 * Keeps this host's hold on its accounts (SKIP LOCKED claims and leases, see AccountsRepo): it
 * renews the leases of the sessions held here every third of a lease, drops a session whose
 * account another host took over, ends logins nobody saved, and sweeps for accounts whose holder
 * died to restore them here from their stored session, with no new QR scan.
 */
export class LeaseSweeper {
  private timers: NodeJS.Timeout[] = [];
  private sweeping = false;
  private renewing = false;
  private takeOver: boolean;
  /**
   * Accounts a sweep claimed whose sessions are still starting: their leases are renewed with the
   * held ones (a sweep that restores hundreds one after another outlasts a lease), and one that
   * another host took meanwhile is dropped as soon as it has started.
   */
  private readonly restoring = new Set<number>();
  private readonly lostWhileRestoring = new Set<number>();
  /** accounts whose blast should run and whose loop did not, at the last renewal */
  private stalledBefore = new Set<number>();
  /** what the heartbeat reports: such accounts seen twice in a row and not resumed */
  private stalled = 0;

  /** the sessions held here */
  private readonly reg: HeldSessions;

  constructor(
    private readonly ports: LeasePorts,
    private readonly o: LeaseOptions,
  ) {
    this.reg = ports.sessions;
    this.takeOver = o.exclusive;
  }

  async start(): Promise<void> {
    const { leaseMs } = this.ports;
    const renew = setInterval(
      () => void this.renew().catch((err) => this.failed(err, 'lease renewal failed')),
      Math.max(1000, Math.floor(leaseMs / 3)),
    );
    const sweep = setInterval(() => void this.sweep().catch((err) => this.failed(err, 'sweep failed')), this.o.sweepMs);
    renew.unref();
    sweep.unref();
    this.timers.push(renew, sweep);
    await this.heartbeat();
    await this.sweep();
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }

  /** An outage is the monitor's to log (once); anything else is logged here. */
  private failed(err: unknown, what: string): void {
    const { monitor, log } = this.ports;
    void monitor.classify(err).then((dep) => {
      if (!dep) log.error({ err }, what);
    });
  }

  /**
   * Tells the API this host is alive and how many unsaved logins it takes, for as long as a lease
   * lasts: new-client is refused up front when every live host is full.
   */
  private heartbeat(): Promise<void> {
    const { logins, workerId, leaseMs, monitor } = this.ports;
    return logins.heartbeat(workerId, this.o.maxPendingLogins, leaseMs, {
      stalled: this.stalled,
      waitingFor: monitor.waitingFor,
    });
  }

  /** Renews the leases of the accounts held here and lets go of any another host took over. */
  async renew(): Promise<void> {
    if (this.reg.stopped || this.renewing) return;
    this.renewing = true;
    try {
      await this.renewOnce();
    } finally {
      this.renewing = false;
    }
  }

  private async renewOnce(): Promise<void> {
    const { accounts, logins, log, workerId, leaseMs } = this.ports;
    await this.heartbeat();
    const held = this.reg.sessions().filter((l) => l.accountId !== null);
    const ids = [...new Set([...held.map((l) => l.accountId as number), ...this.restoring])];
    if (ids.length) {
      const keep = await accounts.renewLeases(ids, workerId, leaseMs);
      // only the ids this renewal asked for: one the sweep claimed while it was on its way was not
      // among them, and is not lost (that race dropped fresh restores again and again)
      for (const id of ids) if (this.restoring.has(id) && !keep.has(id)) this.lostWhileRestoring.add(id);
      const kept: LiveSession[] = [];
      for (const l of held) {
        if (keep.has(l.accountId as number)) {
          kept.push(l);
          continue;
        }
        log.warn({ deviceId: l.deviceId }, 'lease lost to another worker; dropping the session here');
        await this.reg.drop(l.deviceId, { keepStored: true, release: false });
      }
      await this.reconcile(kept);
    } else this.stalled = 0;
    // logins that were never saved end once their code has run out (see SessionRegistry.touch)
    const now = Date.now();
    for (const l of this.reg.sessions()) {
      if (l.accountId !== null || now <= l.deadline) continue;
      // saved a moment ago: the API's adopt is on its way
      if (!(await accounts.isSaved(l.deviceId))) await this.reg.drop(l.deviceId, { keepStored: false, release: false });
    }
    await logins.purgeExpired();
  }

  /**
   * Compares the rows of the accounts held here with their sessions and loops, and mends what an
   * outage left behind: a row that says 'reconnecting...' for a session that is connected (its
   * write was lost, or the sweep took back an account this host still held) says connected again,
   * and a blast whose row says it runs but whose loop does not (seen at two renewals in a row, so
   * a start on its way is not one) is resumed. What cannot be mended is reported in the heartbeat.
   */
  private async reconcile(held: LiveSession[]): Promise<void> {
    const byId = new Map(held.map((l) => [l.accountId as number, l]));
    const stalledNow = new Set<number>();
    let stuck = 0;
    for (const r of await this.ports.accounts.switchesOf([...byId.keys()])) {
      const l = byId.get(r.id);
      if (!l || !this.reg.isCurrent(l) || l.state !== 'connected') continue;
      if (r.state === 'reconnecting...') await this.sayConnected(l);
      if (!r.blasting || l.loops.blasting) continue;
      stalledNow.add(r.id);
      if (!this.stalledBefore.has(r.id)) continue;
      this.ports.log.warn({ deviceId: l.deviceId }, 'blast should run and its loop did not; resuming it');
      await l.loops.resume(() => this.reg.isCurrent(l));
      if (!l.loops.blasting) stuck += 1;
    }
    this.stalledBefore = stalledNow;
    this.stalled = stuck;
  }

  /** The session held here is connected: its row and the lists say so again, and its loops go on. */
  private async sayConnected(l: LiveSession): Promise<void> {
    const { log } = this.ports;
    await this.reg.setState(l, 'connected');
    await this.reg
      .emit(l, 'connection.update', { deviceId: l.deviceId, state: 'connected' })
      .catch((err: unknown) => this.ports.monitor.markDown('redis', err));
    log.info({ deviceId: l.deviceId }, 'account held here said connected again');
    await l.loops.resume(() => this.reg.isCurrent(l));
  }

  /** Claims accounts whose lease ran out (their host died) and restores them here. */
  async sweep(): Promise<void> {
    if (this.reg.stopped || this.sweeping) return;
    this.sweeping = true;
    try {
      // batch after batch while there is more, so a host that starts alone takes every account
      for (let round = 0; round < 1000 && !this.reg.stopped; round++) {
        if ((await this.sweepOnce()) < this.o.claimBatch) break;
      }
      this.takeOver = false;
      // payout_on = 'delivered': fees still held past the undelivered window end unpaid
      const unpaid = await settleUndelivered(this.ports.db);
      if (unpaid) this.ports.log.info({ unpaid }, 'settled undelivered messages unpaid');
    } finally {
      this.sweeping = false;
    }
  }

  private async sweepOnce(): Promise<number> {
    const { accounts, bus, log, workerId, leaseMs, webhooks } = this.ports;
    const claimed = await accounts.claimExpired({
      workerId,
      leaseMs,
      takeOver: this.takeOver,
      limit: this.o.claimBatch,
    });
    for (const c of claimed) this.restoring.add(c.id);
    try {
      for (const c of claimed) {
        if (this.reg.stopped) break;
        const held = this.reg.get(c.clientid);
        if (held) {
          // its lease ran out while this host held it (the database was away): the claim wrote
          // 'reconnecting...' over a session that never stopped
          held.accountId = c.id;
          if (this.reg.isCurrent(held) && held.state === 'connected') await this.sayConnected(held);
          continue;
        }
        log.info({ deviceId: c.clientid }, 'restoring session');
        // the restore is the session's first reconnect attempt here
        const account = {
          id: c.id,
          userId: c.user_id,
          deviceId: c.clientid,
          state: c.state,
          status: c.status,
          number: c.phonenumber,
          reconnects: 1,
        };
        const payload = { deviceId: c.clientid, state: 'reconnecting...' as const };
        await publishToOwnerAndAdmins(
          bus,
          c.user_id,
          'reconnecting',
          withMonitor(account, 'reconnecting', payload),
        ).catch((err: unknown) => this.ports.monitor.markDown('redis', err));
        // the claim changed the account's state (its holder died, or POST reconnect found none)
        const ref = { userId: c.user_id, accountId: c.id, deviceId: c.clientid, phone: c.phonenumber };
        hookFor(webhooks, ref, 'account.state', { state: c.state ?? 'reconnecting...' });
        await this.reg.start(c.clientid, c.user_id, c.id, null, c.proxy, false, c.engine, 1);
        this.restoring.delete(c.id);
        if (this.lostWhileRestoring.delete(c.id)) {
          log.warn({ deviceId: c.clientid }, 'lease lost while restoring; dropping the session here');
          await this.reg.drop(c.clientid, { keepStored: true, release: false });
        }
      }
    } finally {
      for (const c of claimed) {
        this.restoring.delete(c.id);
        this.lostWhileRestoring.delete(c.id);
      }
    }
    return claimed.length;
  }
}
