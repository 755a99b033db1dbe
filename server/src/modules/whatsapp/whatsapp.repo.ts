import { ACCOUNT_COLS as COLS, type AccountRow as Row, toWhatsappDto } from '@wa/core/accounts/account-row';
import { type Db, type RawRow, rows } from '@wa/core/db/client';
import type { proxies, whatsappLogins } from '@wa/core/db/schema/index';
import { likePattern } from '@wa/core/paging';
import type { WaEngine, WhatsappDto } from '@wa/shared';
import { type SQL, sql } from 'drizzle-orm';

export interface ListFilter {
  userId?: number;
  /** only accounts that are connected (the `synced` choices of the blaster and tool forms) */
  synced?: boolean;
  search?: string;
  status?: string;
}

function whereOf(f: ListFilter): SQL {
  const parts: SQL[] = [];
  if (f.userId !== undefined) parts.push(sql`w.user_id = ${f.userId}`);
  if (f.synced) parts.push(sql`w.state = 'connected'`);
  if (f.search) {
    const p = likePattern(f.search);
    parts.push(sql`(w.phonenumber ilike ${p} or w.pushname ilike ${p} or w.clientid ilike ${p})`);
  }
  if (f.status === 'sending') parts.push(sql`w.status = 'sending'`);
  else if (f.status === 'unknown') parts.push(sql`(w.state = 'unknown' or w.state is null)`);
  else if (f.status) parts.push(sql`w.state = ${f.status}`);
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
}

/** The advisory lock of new-client's cap checks (see lockLogins). */
export const LOGIN_LOCK = 727_274_201;

/**
 * SQL for the WhatsApp screens: account lists and counts, logins in progress, one-off sends. The
 * account row itself changes only through AccountsRepo (core), the owner of its state machine.
 */
export class WhatsappRepo {
  constructor(private readonly db: Db) {}

  async byId(id: number): Promise<WhatsappDto | null> {
    const [r] = await rows<Row>(this.db, sql`select ${COLS} from whatsapp_accounts w where w.id = ${id}`);
    return r ? toWhatsappDto(r) : null;
  }

  async byClientId(clientid: string): Promise<WhatsappDto | null> {
    const [r] = await rows<Row>(this.db, sql`select ${COLS} from whatsapp_accounts w where w.clientid = ${clientid}`);
    return r ? toWhatsappDto(r) : null;
  }

  async byPhone(phonenumber: string, userId?: number): Promise<WhatsappDto | null> {
    const owner = userId === undefined ? sql`true` : sql`w.user_id = ${userId}`;
    const [r] = await rows<Row>(
      this.db,
      sql`select ${COLS} from whatsapp_accounts w where w.phonenumber = ${phonenumber} and ${owner}
          order by (w.state = 'connected') desc, w.id desc limit 1`,
    );
    return r ? toWhatsappDto(r) : null;
  }

  async list(f: ListFilter): Promise<WhatsappDto[]> {
    const list = await rows<Row>(
      this.db,
      sql`select ${COLS}, u.firstname, u.lastname, u.email from whatsapp_accounts w join users u on u.id = w.user_id
          where ${whereOf(f)} order by w.id desc limit 5000`,
    );
    return list.map(toWhatsappDto);
  }

  async page(f: ListFilter, limit: number, offset: number): Promise<{ total: number; data: WhatsappDto[] }> {
    const where = whereOf(f);
    const [c] = await rows<{ n: number }>(
      this.db,
      sql`select count(*)::int as n from whatsapp_accounts w where ${where}`,
    );
    const list = await rows<Row>(
      this.db,
      sql`select ${COLS}, u.firstname, u.lastname, u.email from whatsapp_accounts w join users u on u.id = w.user_id
          where ${where} order by w.id desc limit ${limit} offset ${offset}`,
    );
    return { total: Number(c?.n ?? 0), data: list.map(toWhatsappDto) };
  }

  /** Connected and other accounts of one user, or of everyone (null). */
  async counts(userId: number | null): Promise<{ connectedCount: number; disconnectedCount: number }> {
    const owner = userId === null ? sql`true` : sql`user_id = ${userId}`;
    const [r] = await rows<{ connected: number; disconnected: number }>(
      this.db,
      sql`select count(*) filter (where state = 'connected')::int as connected,
                 count(*) filter (where state is distinct from 'connected')::int as disconnected
          from whatsapp_accounts where ${owner}`,
    );
    return { connectedCount: Number(r?.connected ?? 0), disconnectedCount: Number(r?.disconnected ?? 0) };
  }

  /**
   * new-client transactions take this lock, so the per-user and per-worker counts they check cannot
   * both pass for two logins racing on different API replicas.
   */
  async lockLogins(): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(${LOGIN_LOCK})`);
  }

  /** Unsaved logins that `requestedBy` opened and that have not run out. */
  async pendingLogins(requestedBy: number): Promise<number> {
    const [r] = await rows<{ n: number }>(
      this.db,
      sql`select count(*)::int as n from whatsapp_logins where requested_by = ${requestedBy} and expires_at > now()`,
    );
    return Number(r?.n ?? 0);
  }

  /** How many unsaved logins the live workers may run together, and how many run or wait now. */
  async loginCapacity(): Promise<{ capacity: number; pending: number }> {
    const [r] = await rows<{ capacity: number; pending: number }>(
      this.db,
      sql`select (select coalesce(sum(max_logins), 0)::int from whatsapp_workers where expires_at > now()) as capacity,
                 (select count(*)::int from whatsapp_logins where expires_at > now()) as pending`,
    );
    return { capacity: Number(r?.capacity ?? 0), pending: Number(r?.pending ?? 0) };
  }

  /**
   * The least used active proxy (§7 new-client), counting the logins that hold it unsaved: its use
   * is only counted at save, so without them every login at once would get the same proxy.
   */
  async leastUsedProxy(engine: WaEngine | null = null): Promise<{ id: number; value: string } | null> {
    // Chromium cannot authenticate to a SOCKS proxy: a whatsapp-web.js login never gets one with
    // credentials (it would not start); Baileys can use it
    const usable = engine === 'wwebjs' ? sql`and p.value !~* '^socks[45]://[^@/]+@'` : sql``;
    const [p] = await rows<Pick<RawRow<typeof proxies>, 'id' | 'value'>>(
      this.db,
      sql`select p.id, p.value from proxies p
          where p.status = 'active' ${usable}
          order by p.count_use + (select count(*) from whatsapp_logins l where l.proxy_id = p.id and l.expires_at > now()), p.id
          limit 1`,
    );
    return p ?? null;
  }

  /** Records a login in progress; false when the device id is taken already. */
  async insertLogin(l: {
    deviceId: string;
    userId: number;
    requestedBy: number;
    proxyId: number | null;
    engine: WaEngine | null;
    ttlMs: number;
  }): Promise<boolean> {
    const r = await rows<{ device_id: string }>(
      this.db,
      sql`insert into whatsapp_logins (device_id, user_id, requested_by, proxy_id, engine, expires_at)
          values (${l.deviceId}, ${l.userId}, ${l.requestedBy}, ${l.proxyId}, ${l.engine}, now() + ${l.ttlMs} * interval '1 millisecond')
          on conflict (device_id) do nothing returning device_id`,
    );
    return r.length > 0;
  }

  /** A login in progress, expired or not (its worker decides whether it still runs). */
  async loginOf(deviceId: string): Promise<{ userId: number; requestedBy: number; proxyId: number | null } | null> {
    const [r] = await rows<Pick<RawRow<typeof whatsappLogins>, 'user_id' | 'requested_by' | 'proxy_id'>>(
      this.db,
      sql`select user_id, requested_by, proxy_id from whatsapp_logins where device_id = ${deviceId}`,
    );
    return r ? { userId: r.user_id, requestedBy: r.requested_by, proxyId: r.proxy_id } : null;
  }

  /** Ends a login in progress; returns it when this call ended it (one save wins). */
  async takeLogin(deviceId: string): Promise<{ proxyId: number | null; engine: WaEngine | null } | null> {
    // the engine column holds what insertLogin wrote: a WaEngine or null
    const [r] = await rows<Pick<RawRow<typeof whatsappLogins>, 'proxy_id'> & { engine: WaEngine | null }>(
      this.db,
      sql`delete from whatsapp_logins where device_id = ${deviceId} returning proxy_id, engine`,
    );
    return r ? { proxyId: r.proxy_id, engine: r.engine } : null;
  }

  /** Counts one more account on the proxy (at save: a login dropped unsaved never counts). */
  async countProxyUse(proxyId: number): Promise<void> {
    await this.db.execute(sql`update proxies set count_use = count_use + 1, updated_at = now() where id = ${proxyId}`);
  }

  /** Locks the account's row for the rest of the transaction. */
  async lockAccount(id: number): Promise<void> {
    await this.db.execute(sql`select id from whatsapp_accounts where id = ${id} for update`);
  }

  /** Which of `numbers` are active target numbers of the default pool (a campaign's are its own). */
  async activeTargets(numbers: string[]): Promise<Set<string>> {
    if (!numbers.length) return new Set();
    const found = await rows<{ number: string }>(
      this.db,
      sql`select number from phone_numbers
          where campaign_id is null and status = 'active' and number = any(${sql.param(numbers)}::text[])`,
    );
    return new Set(found.map((f) => f.number));
  }

  /** Receivers of the account's one-off sends that are still to go. */
  async unsentReceivers(accountId: number): Promise<number> {
    const [r] = await rows<{ n: number }>(
      this.db,
      sql`select coalesce(sum(cardinality(receivers) - position), 0)::int as n
          from whatsapp_sends where whatsapp_id = ${accountId} and status = 'sending'`,
    );
    return Number(r?.n ?? 0);
  }

  /** Records a one-off send for the account's holder to work through. */
  async insertSend(s: {
    id: string;
    accountId: number;
    requestedBy: number;
    message: string;
    receivers: string[];
  }): Promise<void> {
    await this.db.execute(
      sql`insert into whatsapp_sends (id, whatsapp_id, requested_by, message, receivers)
          values (${s.id}, ${s.accountId}, ${s.requestedBy}, ${s.message}, ${sql.param(s.receivers)}::text[])
          on conflict (id) do nothing`,
    );
  }

  /** A send whose job could not be queued is not left for a holder to find later. */
  async stopSend(id: string): Promise<void> {
    await this.db.execute(sql`update whatsapp_sends set status = 'stopped', updated_at = now() where id = ${id}`);
  }

  async proxyValue(id: number): Promise<string | null> {
    const [p] = await rows<Pick<RawRow<typeof proxies>, 'value'>>(
      this.db,
      sql`select value from proxies where id = ${id}`,
    );
    return p?.value ?? null;
  }

  /** Whether a blast has something to send: an active template of the pool, or an active campaign's approved variant. */
  async hasActiveTemplate(): Promise<boolean> {
    // the pool's templates, or an active campaign's approved variants (issue 22)
    const r = await rows<{ id: number }>(
      this.db,
      sql`select t.id from message_templates t
          left join campaigns c on c.id = t.campaign_id
          where t.status = 'active'
            and (t.campaign_id is null or (c.status = 'active' and t.approved_at is not null and t.weight > 0))
          limit 1`,
    );
    return r.length > 0;
  }

  /** Whether any target is left to blast (active, never sent to, not claimed): the pool's or an active campaign's. */
  async hasTargetLeft(): Promise<boolean> {
    const r = await rows<{ id: number }>(
      this.db,
      sql`(select p.id from phone_numbers p
           where p.campaign_id is null and p.status = 'active' and p.last_sent is null and p.in_use = 0 limit 1)
          union all
          (select p.id from campaigns c
           join phone_numbers p on p.campaign_id = c.id and p.status = 'active' and p.last_sent is null and p.in_use = 0
           where c.status = 'active' limit 1)
          limit 1`,
    );
    return r.length > 0;
  }

  /** A device's stored WhatsApp session goes (its account moved to another device). */
  async forgetStoredSession(deviceId: string): Promise<void> {
    await this.db.execute(sql`with k as (delete from whatsapp_session_keys where session_id = ${deviceId})
      delete from whatsapp_sessions where session_id = ${deviceId}`);
  }

  async latestMessage(whatsappId: number): Promise<Record<string, unknown> | null> {
    const [m] = await rows<Record<string, unknown>>(
      this.db,
      sql`select id, target, status, error, text, wa_message_id as "messageId", created_at as "createdAt"
          from message_logs where whatsapp_id = ${whatsappId} order by id desc limit 1`,
    );
    return m ?? null;
  }

  async userInterval(userId: number): Promise<number | null> {
    const [u] = await rows<{ v: number | null }>(
      this.db,
      sql`select blast_interval_min as v from users where id = ${userId}`,
    );
    return u?.v ?? null;
  }
}
