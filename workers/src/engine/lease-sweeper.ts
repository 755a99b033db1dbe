import { publishToOwnerAndAdmins } from '@wa/core/realtime/publish';
import { settleUndelivered } from './receipts.repo';
import type { SessionRegistry } from './session-registry';

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
  private takeOver: boolean;

  constructor(
    private readonly reg: SessionRegistry,
    private readonly o: LeaseOptions,
  ) {
    this.takeOver = o.exclusive;
  }

  async start(): Promise<void> {
    const { log, leaseMs } = this.reg.deps;
    const renew = setInterval(
      () => void this.renew().catch((err) => log.error({ err }, 'lease renewal failed')),
      Math.max(1000, Math.floor(leaseMs / 3)),
    );
    const sweep = setInterval(
      () => void this.sweep().catch((err) => log.error({ err }, 'sweep failed')),
      this.o.sweepMs,
    );
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

  /**
   * Tells the API this host is alive and how many unsaved logins it takes, for as long as a lease
   * lasts: new-client is refused up front when every live host is full.
   */
  private heartbeat(): Promise<void> {
    const { logins, workerId, leaseMs } = this.reg.deps;
    return logins.heartbeat(workerId, this.o.maxPendingLogins, leaseMs);
  }

  /** Renews the leases of the accounts held here and lets go of any another host took over. */
  async renew(): Promise<void> {
    if (this.reg.stopped) return;
    const { accounts, logins, log, workerId, leaseMs } = this.reg.deps;
    await this.heartbeat();
    const held = this.reg.sessions().filter((l) => l.accountId !== null);
    if (held.length) {
      const keep = await accounts.renewLeases(
        held.map((l) => l.accountId as number),
        workerId,
        leaseMs,
      );
      for (const l of held) {
        if (keep.has(l.accountId as number)) continue;
        log.warn({ deviceId: l.deviceId }, 'lease lost to another worker; dropping the session here');
        await this.reg.drop(l.deviceId, { keepStored: true, release: false });
      }
    }
    // logins that were never saved end once their code has run out (see SessionRegistry.touch)
    const now = Date.now();
    for (const l of this.reg.sessions()) {
      if (l.accountId !== null || now <= l.deadline) continue;
      // saved a moment ago: the API's adopt is on its way
      if (!(await accounts.isSaved(l.deviceId))) await this.reg.drop(l.deviceId, { keepStored: false, release: false });
    }
    await logins.purgeExpired();
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
      const unpaid = await settleUndelivered(this.reg.deps.db);
      if (unpaid) this.reg.deps.log.info({ unpaid }, 'settled undelivered messages unpaid');
    } finally {
      this.sweeping = false;
    }
  }

  private async sweepOnce(): Promise<number> {
    const { accounts, bus, log, workerId, leaseMs } = this.reg.deps;
    const claimed = await accounts.claimExpired({
      workerId,
      leaseMs,
      takeOver: this.takeOver,
      limit: this.o.claimBatch,
    });
    for (const c of claimed) {
      if (this.reg.stopped) break;
      const held = this.reg.get(c.clientid);
      if (held) {
        held.accountId = c.id;
        continue;
      }
      log.info({ deviceId: c.clientid }, 'restoring session');
      await publishToOwnerAndAdmins(bus, c.user_id, 'reconnecting', { deviceId: c.clientid, state: 'reconnecting...' });
      await this.reg.start(c.clientid, c.user_id, c.id, null, c.proxy, false, c.engine);
    }
    return claimed.length;
  }
}
