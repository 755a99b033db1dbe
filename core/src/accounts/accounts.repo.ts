import type { ClientInfo, RunStatus, WaEngine, WhatsappDto, WhatsappState } from '@wa/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type Columns, type Db, type Nullable, type RawRow, rows } from '../db/client';
import type { proxies, whatsappAccounts } from '../db/schema/index';
import { localDayEnd } from '../local-time';
import { ACCOUNT_COLS, type AccountRow, toWhatsappDto } from './account-row';
import { START_GUARD } from './blast-rules';

/** What a saved login knows about its account. */
export interface LoggedInAccount {
  clientid: string;
  phonenumber: string | null;
  pushname: string | null;
  server: string | null;
  serialized: string | null;
  proxyId: number | null;
  /** the engine the login ran on: its stored session belongs to it */
  engine?: WaEngine | null;
}

type Account = RawRow<typeof whatsappAccounts>;

/** An account's figures after a blast message: its counts, income, failure streak and the day's count. */
export type SendCounts = Pick<
  Columns<typeof whatsappAccounts>,
  'count_success' | 'count_fail' | 'income' | 'fail_streak' | 'sent_today'
>;

/** An account a sweep claimed, with what its new holder needs to restore the session. */
export type ClaimedAccount = Pick<Account, 'id' | 'clientid' | 'user_id' | 'phonenumber'> & {
  /** its proxy's value */
  proxy: RawRow<typeof proxies>['value'] | null;
  /** the engine its stored session belongs to (null: whatsapp-web.js, from before engines) */
  engine: WaEngine | null;
  /** what the claim left it showing ('reconnecting...', or 'suspended'), its run status and number: its holder tells them */
  state: WhatsappState | null;
  status: RunStatus;
};

/**
 * The state an account shows for what its session says. A suspended account stays suspended,
 * whatever the session says, until an admin activates it: while its session is up or coming back
 * it shows 'suspended'; a session that is down shows why (disconnected, loggedOut…), so the owner
 * sees that it needs a new login. Over `whatsapp_accounts w`.
 */
function shownState(next: WhatsappState): SQL {
  return sql`case when w.suspended and ${next}::text in ('connected', 'reconnecting...') then 'suspended' else ${next}::text end`;
}

const leaseUntil = (leaseMs: number) => sql`now() + ${leaseMs} * interval '1 millisecond'`;

/**
 * The one owner of the account state machine (§4 WhatsApp account state): every write to
 * whatsapp_accounts is one of these named transitions, for the API and the workers alike.
 *
 * - run status: `startSending` only while the account keeps the start rules (blast-rules.ts),
 *   `stopSending` back to idle, `setRunStatus` by hand (an admin's repair);
 * - session state: `applySessionState` (suspension sticky, see shownState), `suspend`,
 *   `suspendForRule1`, `liftSuspension`;
 * - account safety: `pause` after ban signals, `liftPause`, `countDrop`; `countSend` keeps the
 *   failure streak;
 * - leases (which worker holds the live session): `adopt`, `claimExpired`, `renewLeases`,
 *   `releaseLease(s)`, `expireLease`;
 * - the rest of the row: `create`, `relogin`, `recordClientInfo`, `countSend`, `resetCounts`,
 *   `setInterval`.
 */
export class AccountsRepo {
  constructor(private readonly db: Db) {}

  private async one(query: SQL): Promise<WhatsappDto | null> {
    const [r] = await rows<AccountRow>(this.db, query);
    return r ? toWhatsappDto(r) : null;
  }

  // ---- the row ----------------------------------------------------------------------------

  /** A login saved as a new account: connected, held by nobody until its worker adopts it. */
  async create(a: LoggedInAccount & { userId: number; interval: number | null }): Promise<WhatsappDto> {
    const [r] = await rows<AccountRow>(
      this.db,
      sql`insert into whatsapp_accounts as w (clientid, user_id, phonenumber, pushname, server, serialized, proxy_id, engine, interval, state)
          values (${a.clientid}, ${a.userId}, ${a.phonenumber}, ${a.pushname}, ${a.server}, ${a.serialized}, ${a.proxyId}, ${a.engine ?? null}, ${a.interval}, 'connected')
          returning ${ACCOUNT_COLS}`,
    );
    return toWhatsappDto(r as AccountRow);
  }

  /**
   * A login saved as a reconnect of an account: the account (its counts and income) moves to the
   * new device id; the old device's lease is void.
   */
  async relogin(id: number, a: LoggedInAccount): Promise<WhatsappDto> {
    const [r] = await rows<AccountRow>(
      this.db,
      sql`update whatsapp_accounts as w set previous_device_id = w.clientid, clientid = ${a.clientid},
            phonenumber = coalesce(${a.phonenumber}, w.phonenumber), pushname = coalesce(${a.pushname}, w.pushname),
            server = coalesce(${a.server}, w.server), serialized = coalesce(${a.serialized}, w.serialized),
            proxy_id = coalesce(${a.proxyId}, w.proxy_id), engine = ${a.engine ?? null}, reconnect = w.reconnect + 1,
            state = ${shownState('connected')},
            worker_id = null, lease_until = null, updated_at = now()
          where w.id = ${id} returning ${ACCOUNT_COLS}`,
    );
    return toWhatsappDto(r as AccountRow);
  }

  /** What WhatsApp says about the account, each time its session is ready. */
  async recordClientInfo(id: number, info: ClientInfo): Promise<void> {
    await this.db.execute(sql`
      update whatsapp_accounts
      set phonenumber = ${info.phonenumber}, pushname = ${info.pushname},
          server = ${info.server}, serialized = ${info.serialized}, updated_at = now()
      where id = ${id}`);
  }

  /**
   * A blast message's outcome on its account: its counts and income, its failure streak and the
   * day's count for the daily cap (a new day in `timeZone` starts it again). Null when the account is gone.
   */
  async countSend(id: number, o: { success: boolean; fee: number; timeZone: string }): Promise<SendCounts | null> {
    // income is a bigint: text on node-postgres
    const [r] = await rows<Pick<Account, keyof SendCounts>>(this.db, AccountsRepo.countSendSql(id, o));
    return r ? { ...r, income: Number(r.income) } : null;
  }

  /**
   * `countSend` as one statement, for the blast's outcome statement to run as a step (its other
   * steps write the log and the target in the same round trip). `when`: a condition on those steps.
   */
  static countSendSql(id: number, o: { success: boolean; fee: number; timeZone: string }, when: SQL = sql`true`): SQL {
    const s = o.success ? 1 : 0;
    return sql`update whatsapp_accounts
          set count_success = count_success + ${s}::int, count_fail = count_fail + (1 - ${s}::int),
              income = income + ${o.fee}::int,
              fail_streak = case when ${s}::int = 1 then 0 else fail_streak + 1 end,
              sent_today = case when sent_day_end > now() then sent_today + 1 else 1 end,
              sent_day_end = ${localDayEnd(o.timeZone)}, updated_at = now()
          where id = ${id}::int and ${when}
          returning count_success, count_fail, income, fail_streak, sent_today`;
  }

  /**
   * `countSend` for many accounts at once, one row each in `source` (acc, s: 1 accepted / 0 failed,
   * fee paid), for the blast's batched outcome statement. Returns each account's figures with its id.
   */
  static countSendsSql(source: SQL, timeZone: string): SQL {
    return sql`update whatsapp_accounts w
          set count_success = w.count_success + c.s, count_fail = w.count_fail + (1 - c.s),
              income = w.income + c.fee,
              fail_streak = case when c.s = 1 then 0 else w.fail_streak + 1 end,
              sent_today = case when w.sent_day_end > now() then w.sent_today + 1 else 1 end,
              sent_day_end = ${localDayEnd(timeZone)}, updated_at = now()
          from (${source}) c where w.id = c.acc
          returning w.id, w.count_success, w.count_fail, w.income, w.fail_streak, w.sent_today`;
  }

  /**
   * A receipt changed a blast message's outcome on its account: a failure reported after WhatsApp
   * accepted the message moves it from the success count to the fail count, and a fee paid on
   * delivery adds to the income. The account's figures after it, as `count_synced` tells them.
   */
  static countReceiptSql(id: number, failed: SQL, paid: SQL): SQL {
    return sql`update whatsapp_accounts
          set count_success = greatest(0, count_success - ${failed}), count_fail = count_fail + ${failed},
              income = income + ${paid}, updated_at = now()
          where id = ${id}::int and (${failed} > 0 or ${paid} > 0)
          returning count_success, count_fail, income`;
  }

  /**
   * A number check (generator, validator) takes one of the account's daily budget: true when it
   * was within `budget` for the current day in `timeZone` (a new day starts the count again).
   */
  async countCheck(id: number, budget: number, timeZone: string): Promise<boolean> {
    const r = await rows<{ id: number }>(
      this.db,
      sql`update whatsapp_accounts
          set checks_today = case when checks_day_end > now() then checks_today + 1 else 1 end,
              checks_day_end = ${localDayEnd(timeZone)}
          where id = ${id} and (checks_day_end is null or checks_day_end <= now() or checks_today < ${budget})
          returning id`,
    );
    return r.length > 0;
  }

  /** POST reset: the counts and income start again (the message log keeps the total). */
  resetCounts(id: number): Promise<WhatsappDto | null> {
    return this.one(sql`update whatsapp_accounts as w set count_success = 0, count_fail = 0, income = 0, updated_at = now()
                        where w.id = ${id} returning ${ACCOUNT_COLS}`);
  }

  /** PUT interval: the seconds between two sends of this account. */
  setInterval(id: number, interval: number): Promise<WhatsappDto | null> {
    return this.one(sql`update whatsapp_accounts as w set interval = ${interval}, updated_at = now()
                        where w.id = ${id} returning ${ACCOUNT_COLS}`);
  }

  // ---- run status -------------------------------------------------------------------------

  /**
   * A blast starts (at `startAt` when the member scheduled it): the switch the holder's loop reads
   * flips to 'sending' only while the account keeps the start rules (START_GUARD: idle, connected,
   * neither suspended nor paused), so of two starts one wins. Null when it did not flip.
   */
  startSending(id: number, startAt: Date | null = null): Promise<WhatsappDto | null> {
    return this.one(sql`update whatsapp_accounts as w set status = 'sending', blast_start_at = ${startAt}, updated_at = now()
                        where w.id = ${id} and ${START_GUARD}
                        returning ${ACCOUNT_COLS}`);
  }

  /**
   * A blast ends (stopped, through, refused, or its start undone): the account is idle again.
   * Null when it was not sending (someone else ended it first).
   */
  stopSending(id: number): Promise<WhatsappDto | null> {
    return this.one(sql`update whatsapp_accounts as w set status = 'idle', blast_start_at = null, updated_at = now()
                        where w.id = ${id} and w.status = 'sending' returning ${ACCOUNT_COLS}`);
  }

  /** PUT status (admin and dev): the run status set by hand, a repair when a loop and the row disagree. */
  setRunStatus(id: number, status: RunStatus): Promise<WhatsappDto | null> {
    return this.one(sql`update whatsapp_accounts as w set status = ${status}, updated_at = now()
                        where w.id = ${id} returning ${ACCOUNT_COLS}`);
  }

  // ---- session state ----------------------------------------------------------------------

  /**
   * The session reported a state. A suspended account stays suspended (see shownState); an
   * account that is neither connected nor coming back is idle (its blast has ended), while a
   * rebuild in place keeps a blast's 'sending' for when the session is back.
   */
  async applySessionState(id: number, state: WhatsappState): Promise<void> {
    const idle = state !== 'connected' && state !== 'reconnecting...';
    await this.db.execute(sql`
      update whatsapp_accounts as w
      set state = ${shownState(state)}, updated_at = now(),
          status = case when ${idle} then 'idle' else w.status end
      where w.id = ${id}`);
  }

  /** WhatsApp suspended the account: it stays suspended until activated; its new suspended_count. */
  async suspend(id: number): Promise<number> {
    const [r] = await rows<Pick<Account, 'suspended_count'>>(
      this.db,
      sql`update whatsapp_accounts set suspended = true, suspended_count = suspended_count + 1, updated_at = now()
          where id = ${id} returning suspended_count`,
    );
    return r?.suspended_count ?? 0;
  }

  /**
   * Rule #1 (§4 Suspension: 'Jangan hapus pesan terkirim'): the member deleted a blast message for
   * everyone. The account is suspended at once (state suspended, its blast ends); its new
   * suspended_count, or null when it is gone.
   */
  async suspendForRule1(id: number): Promise<number | null> {
    const [r] = await rows<Pick<Account, 'suspended_count'>>(
      this.db,
      sql`update whatsapp_accounts
          set suspended = true, suspended_count = suspended_count + 1, state = 'suspended', status = 'idle', updated_at = now()
          where id = ${id} returning suspended_count`,
    );
    return r?.suspended_count ?? null;
  }

  /**
   * Ban signals (a failure streak, a rate limit, a restriction, a session that keeps dropping): no
   * blast until `hours` from now, and a running one ends. A longer pause already set stays.
   */
  pause(id: number, hours: number, reason: string): Promise<WhatsappDto | null> {
    return this.one(sql`update whatsapp_accounts as w
                        set paused_until = greatest(coalesce(w.paused_until, now()), now() + ${hours} * interval '1 hour'),
                            pause_reason = ${reason}, status = 'idle', fail_streak = 0, drops = 0, drops_since = null,
                            updated_at = now()
                        where w.id = ${id} returning ${ACCOUNT_COLS}`);
  }

  /** Admin or dev lifts a pause: the account may blast again. Null when the account is gone. */
  liftPause(id: number): Promise<WhatsappDto | null> {
    return this.one(sql`update whatsapp_accounts as w
                        set paused_until = null, pause_reason = null, fail_streak = 0, drops = 0, drops_since = null,
                            updated_at = now()
                        where w.id = ${id} returning ${ACCOUNT_COLS}`);
  }

  /**
   * The session dropped: counts the drops within `windowMinutes` of the first one (a new window
   * starts after it). Returns how many there are in the current window.
   */
  async countDrop(id: number, windowMinutes: number): Promise<number> {
    const [r] = await rows<Pick<Account, 'drops'>>(
      this.db,
      sql`update whatsapp_accounts as w
          set drops = case when w.drops_since > now() - ${windowMinutes} * interval '1 minute' then w.drops + 1 else 1 end,
              drops_since = case when w.drops_since > now() - ${windowMinutes} * interval '1 minute' then w.drops_since else now() end
          where w.id = ${id} returning drops`,
    );
    return r?.drops ?? 0;
  }

  /** POST activate: the suspension is lifted; the session's next state shows through. */
  async liftSuspension(id: number): Promise<void> {
    await this.db.execute(sql`
      update whatsapp_accounts set suspended = false, state = 'disconnected', updated_at = now() where id = ${id}`);
  }

  // ---- leases: which worker holds the live session -----------------------------------------

  /** A worker takes the account its login just saved: it holds the lease, the state is its session's. */
  async adopt(id: number, workerId: string, leaseMs: number, state: WhatsappState): Promise<void> {
    await this.db.execute(sql`
      update whatsapp_accounts as w
      set worker_id = ${workerId}, lease_until = ${leaseUntil(leaseMs)}, state = ${shownState(state)}, updated_at = now()
      where w.id = ${id}`);
  }

  /**
   * Claims up to `limit` accounts with a stored session whose lease ran out (their worker died),
   * or, with `takeOver` (the only worker there is), every account another worker held. SKIP LOCKED
   * lets several sweeping workers share them. The claimed accounts are reconnecting.
   */
  claimExpired(o: { workerId: string; leaseMs: number; takeOver: boolean; limit: number }): Promise<ClaimedAccount[]> {
    return rows<ClaimedAccount>(
      this.db,
      sql`with c as (
            select w.id from whatsapp_accounts w
            where (w.lease_until is null or w.lease_until < now() or (${o.takeOver} and w.worker_id is distinct from ${o.workerId}))
              and exists (select 1 from whatsapp_sessions s where s.session_id = w.clientid)
            order by w.id
            limit ${o.limit}
            for update of w skip locked
          )
          update whatsapp_accounts w
          set worker_id = ${o.workerId}, lease_until = ${leaseUntil(o.leaseMs)}, state = ${shownState('reconnecting...')}
          from c
          where w.id = c.id
          returning w.id, w.clientid, w.user_id, w.engine, w.state, w.status, w.phonenumber,
            (select p.value from proxies p where p.id = w.proxy_id) as proxy`,
    );
  }

  /**
   * Renews this worker's leases (and takes back one nobody holds); returns the ids it still holds:
   * an account missing from them was taken over by another worker.
   */
  async renewLeases(ids: number[], workerId: string, leaseMs: number): Promise<Set<number>> {
    const renew = (which: SQL) =>
      rows<{ id: number }>(
        this.db,
        sql`update whatsapp_accounts set lease_until = ${leaseUntil(leaseMs)}
            where id in (${which}) and (worker_id = ${workerId} or worker_id is null)
            returning id`,
      );
    // The rows nobody is writing now, in one statement; then each row that was busy (its blast's
    // outcome being recorded), one at a time. A renewal never holds one row while it waits for
    // another, so it cannot deadlock with an outcome statement that writes several accounts'
    // rows in another order (bench/dashboards.ts saw 40P01 when it did).
    const free = await renew(
      sql`select id from whatsapp_accounts where id = any(${sql.param(ids)}::int[]) for update skip locked`,
    );
    const kept = new Set(free.map((k) => k.id));
    for (const id of ids) {
      if (kept.has(id)) continue;
      for (const k of await renew(sql`${id}::int`)) kept.add(k.id);
    }
    return kept;
  }

  /**
   * Why the account's running loop waits (a dependency is down: 'Menunggu Redis…'), or null when it
   * goes on; written by its holder, shown on the account's row.
   */
  async setWaitingReason(id: number, reason: string | null): Promise<void> {
    await this.db.execute(sql`update whatsapp_accounts set waiting_reason = ${reason} where id = ${id}`);
  }

  /** The worker lets the account go (its session ended here); not when another worker holds it now. */
  async releaseLease(id: number, workerId: string): Promise<void> {
    await this.db.execute(sql`
      update whatsapp_accounts set worker_id = null, lease_until = null where id = ${id} and worker_id = ${workerId}`);
  }

  /** A stopping worker lets go of every account it holds, for the others' next sweep. */
  async releaseLeases(workerId: string): Promise<void> {
    await this.db.execute(sql`
      update whatsapp_accounts set worker_id = null, lease_until = null where worker_id = ${workerId}`);
  }

  /** Nobody answers for the account: its lease ends now, so the next sweep restores it. */
  async expireLease(id: number): Promise<void> {
    await this.db.execute(sql`
      update whatsapp_accounts set worker_id = null, lease_until = null, updated_at = now() where id = ${id}`);
  }

  // ---- reads the holder needs ---------------------------------------------------------------

  /** The switches of the account's loops: a blast runs while 'sending', nothing while suspended. */
  async runSwitches(id: number): Promise<{ status: string; suspended: boolean } | null> {
    const [r] = await rows<Pick<Account, 'status' | 'suspended'>>(
      this.db,
      sql`select status, suspended from whatsapp_accounts where id = ${id}`,
    );
    return r ?? null;
  }

  /**
   * What the rows of the accounts held here say, for the holder to compare with its sessions and
   * loops (see LeaseSweeper.renew): the state as stored, and whether a blast should be running.
   */
  async switchesOf(ids: number[]): Promise<Array<{ id: number; state: string | null; blasting: boolean }>> {
    if (!ids.length) return [];
    return rows<Pick<Account, 'id' | 'state'> & { blasting: boolean }>(
      this.db,
      sql`select id, state,
                 (status = 'sending' and not suspended and (paused_until is null or paused_until <= now())) as blasting
          from whatsapp_accounts where id = any(${sql.param(ids)}::int[])`,
    );
  }

  /** The stored value of the account's proxy, if it has one. */
  async proxyOf(id: number): Promise<string | null> {
    const [r] = await rows<Nullable<Pick<RawRow<typeof proxies>, 'value'>>>(
      this.db,
      sql`select p.value from whatsapp_accounts w left join proxies p on p.id = w.proxy_id where w.id = ${id}`,
    );
    return r?.value ?? null;
  }

  /** Whether a device id belongs to a saved account. */
  async isSaved(clientid: string): Promise<boolean> {
    const r = await rows<{ id: number }>(this.db, sql`select id from whatsapp_accounts where clientid = ${clientid}`);
    return r.length > 0;
  }
}
