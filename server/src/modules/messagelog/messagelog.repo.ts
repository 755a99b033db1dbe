import type { CounterScope } from '@wa/core/counter-scope';
import { type Db, type Int8, type Nullable, type RawRow, rows } from '@wa/core/db/client';
import type { messageLogs, whatsappAccounts } from '@wa/core/db/schema/index';
import { coldDay } from '@wa/core/ledger/rollups';
import { ALL_USERS, type MessageLogItem, type MessageLogStatus, type SuccessFailCount } from '@wa/shared';
import { type SQL, sql } from 'drizzle-orm';

/**
 * The dashboard's figures come from the ledger (core/src/ledger/rollups.ts), never from the message
 * log itself: a day's figures from its day rows (account_daily: one row per account and day, kept
 * by the engine in the statement that changes a message log); all-time figures from the running
 * totals of the days the fold has closed (ledger_totals, one row per user and one for everybody)
 * plus the day rows of the open days after them. So a member's counter reads their accounts' last
 * days and everybody's the accounts' last days, whatever the history's length. `day`: only that
 * day's rows (see `today`).
 */
const onDay = (day: SQL | undefined): SQL => (day ? sql` and d.day = ${day}` : sql` and d.day > ${coldDay}`);

/** A running total's column (ledger_totals) of one user, or of everybody (0). */
const folded = (column: SQL, userId: SQL | 0, day: SQL | undefined): SQL =>
  day ? sql`0` : sql`coalesce((select ${column} from ledger_totals t where t.user_id = ${userId}), 0)`;

/**
 * A scalar SQL expression (bigint) for income, the money rule of docs/PRODUCT.md §4 Money: a
 * member earns the fee paid for each of their messages plus the referral share paid for each
 * message of the members they referred. Globally it is everything paid to members. Held fees
 * (payout on delivery, not yet delivered), failed and unknown messages never count. Shared with
 * the withdraw balance so income has one definition.
 */
export function incomeSql(scope: CounterScope, day?: SQL): SQL {
  if (scope === ALL_USERS) {
    return sql`(${folded(sql`t.income + t.referral_income`, 0, day)}
      + (select coalesce(sum(d.income + d.referral_income), 0)::bigint from account_daily d where true${onDay(day)}))`;
  }
  return userIncomeSql(sql`${scope.userId}`, day);
}

/**
 * The same income of one member, whose id is the SQL `userId` (a parameter, or a column such as
 * `u.id` in a list of members): "Pendapatan" is this figure wherever a member's is shown.
 */
export function userIncomeSql(userId: SQL, day?: SQL): SQL {
  return sql`(${folded(sql`t.income + t.referral_income`, userId, day)}
    + (select coalesce(sum(d.income), 0)::bigint from account_daily d where d.user_id = ${userId}${onDay(day)})
    + (select coalesce(sum(d.referral_income), 0)::bigint from account_daily d
       where d.referrer_id = ${userId}${onDay(day)}))`;
}

/** Which messages a log page lists: one member's, one account's, one status, a target number's start. */
export interface LogFilter {
  userId?: number;
  whatsappId?: number;
  status?: MessageLogStatus;
  search?: string;
}

/** From this offset on, a page seeks its day through the day rows rather than walk the index. */
const SEEK_FROM = 1000;

/** A search is counted on the log itself, up to this many (the page count says at least). */
export const LOG_COUNT_CAP = 10_000;

/**
 * A search with more matches than LOG_COUNT_CAP looks for its page among this many of the newest logs
 * first (bench/reads.ts: 2–4 ms for 5,000 at 10 M logs, 11–14 ms for 20,000).
 */
const SEARCH_WALK = 5_000;

/** How many logs of each status the day rows hold (pending ones are not on them). */
const LEDGER_COUNT: Record<Exclude<MessageLogStatus, 'pending'> | 'all', SQL> = {
  all: sql`sum(d.sent + d.failed + d.unknown)`,
  sent: sql`sum(d.sent - d.delivered)`,
  delivered: sql`sum(d.delivered - d.read)`,
  read: sql`sum(d.read)`,
  failed: sql`sum(d.failed)`,
  unknown: sql`sum(d.unknown)`,
};

function logWhere(f: LogFilter): SQL {
  // no log is pending (migration 0020), so without a status every log is listed
  const parts = [f.status ? sql`m.status = ${f.status}` : sql`true`];
  if (f.userId !== undefined) parts.push(sql`m.user_id = ${f.userId}`);
  if (f.whatsappId !== undefined) parts.push(sql`m.whatsapp_id = ${f.whatsappId}`);
  if (f.search) parts.push(sql`m.target like ${`${f.search.replace(/^\+/, '')}%`}`);
  return sql.join(parts, sql` and `);
}

const iso = (v: string | null) => (v ? new Date(v).toISOString() : null);

/** A row of a log page: the log's columns, its member's name, its account's number and its template's text. */
type LogRow = Pick<
  RawRow<typeof messageLogs>,
  | 'id'
  | 'user_id'
  | 'whatsapp_id'
  | 'target'
  | 'template_id'
  | 'campaign_id'
  | 'variant_id'
  | 'wa_message_id'
  | 'status'
  | 'fee'
  | 'fee_due'
  | 'error'
  | 'created_at'
  | 'sent_at'
  | 'delivered_at'
  | 'read_at'
> &
  Nullable<Pick<RawRow<typeof whatsappAccounts>, 'phonenumber'>> & { name: string; template_text: string | null };

/** SQL for the message log counters and its list; nothing else. */
export class MessageLogRepo {
  constructor(private readonly db: Db) {}

  /** Messages WhatsApp accepted (success) and refused or reported failed (fail); pending and unknown ones are left out. */
  async counts(scope: CounterScope, day?: SQL): Promise<SuccessFailCount> {
    const owner = scope === ALL_USERS ? sql`true` : sql`d.user_id = ${scope.userId}`;
    const who = scope === ALL_USERS ? 0 : sql`${scope.userId}`;
    const [r] = await rows<{ success: Int8; fail: Int8 }>(
      this.db,
      sql`select ${folded(sql`t.sent`, who, day)} + coalesce(sum(d.sent), 0) as success,
                 ${folded(sql`t.failed`, who, day)} + coalesce(sum(d.failed), 0) as fail
          from account_daily d where ${owner}${onDay(day)}`,
    );
    return { success: Number(r?.success ?? 0), fail: Number(r?.fail ?? 0) };
  }

  /**
   * How many logs a list filter matches on each day, newest day first, from the day rows (exact, a
   * few hundred rows however many messages); null for a search or 'pending', which they cannot say.
   * One pass serves both the page count and where a deep page starts.
   */
  async logDays(f: LogFilter): Promise<Array<{ day: string; n: number }> | null> {
    if (f.search || f.status === 'pending') return null;
    const count = LEDGER_COUNT[f.status ?? 'all'];
    const parts = [sql`true`];
    if (f.userId !== undefined) parts.push(sql`d.user_id = ${f.userId}`);
    if (f.whatsappId !== undefined) parts.push(sql`d.whatsapp_id = ${f.whatsappId}`);
    // everybody's: the folded days, then the open days' rows
    const list = await rows<{ day: string; n: Int8 }>(
      this.db,
      parts.length === 1
        ? sql`select d.day::text as day, ${count} as n from ledger_days d where d.day <= ${coldDay} group by d.day
              union all
              select d.day::text, ${count} from account_daily d where d.day > ${coldDay} group by d.day
              order by day desc`
        : sql`select d.day::text as day, ${count} as n from account_daily d
              where ${sql.join(parts, sql` and `)} group by d.day order by d.day desc`,
    );
    return list.map((r) => ({ day: r.day, n: Number(r.n) })).filter((r) => r.n > 0);
  }

  /** How many logs a list filter matches: the day rows' sum, or for a search or 'pending' the log's own count, capped at LOG_COUNT_CAP. */
  async logCount(f: LogFilter, days: Array<{ n: number }> | null): Promise<{ total: number; capped: boolean }> {
    if (days) return { total: days.reduce((a, d) => a + d.n, 0), capped: false };
    if (f.status === 'pending') return { total: 0, capped: false };
    const [r] = await rows<{ n: number }>(
      this.db,
      sql`select count(*)::int as n from (select 1 from message_logs m where ${logWhere(f)} limit ${LOG_COUNT_CAP + 1}) x`,
    );
    const n = Number(r?.n ?? 0);
    return { total: Math.min(n, LOG_COUNT_CAP), capped: n > LOG_COUNT_CAP };
  }

  /**
   * A page of logs, newest first. A deep page (from SEEK_FROM) finds through `days` the day it
   * starts in, and reads the log from that day's end with a small offset instead of walking the
   * whole offset of an index; a page that lies in the older half of its day reads it from the
   * day's start instead, so no page walks more than half a day of logs.
   */
  async logPage(
    f: LogFilter,
    limit: number,
    offset: number,
    timeZone: string,
    days: Array<{ day: string; n: number }> | null,
    /** a search that matches at most LOG_COUNT_CAP logs: they are found by the target's index and sorted */
    fewMatches = false,
    /** a search whose newest logs were walked already (newestMatches) without filling the page */
    walked = false,
  ): Promise<MessageLogItem[]> {
    // nothing writes a 'pending' log (the engine logs a message with its outcome; migration 0020
    // settled the old ones): the filter is kept for the clients that name it, without reading the log
    if (f.status === 'pending') return [];
    let range = sql``;
    let skip = offset;
    let reverse = false;
    if (days && offset >= SEEK_FROM) {
      let before = 0;
      const at = days.find((d) => {
        if (offset < before + d.n) return true;
        before += d.n;
        return false;
      });
      if (!at) return [];
      const dayStart = sql`(${at.day}::date::timestamp at time zone ${timeZone}::text)`;
      const dayEnd = sql`((${at.day}::date + 1)::timestamp at time zone ${timeZone}::text)`;
      const within = offset - before;
      if (within > at.n / 2 && within + limit <= at.n) {
        reverse = true;
        range = sql` and m.created_at >= ${dayStart} and m.created_at < ${dayEnd}`;
        skip = at.n - within - limit;
      } else {
        range = sql` and m.created_at < ${dayEnd}`;
        skip = within;
      }
    }
    const order = reverse ? sql`m.created_at, m.id` : sql`m.created_at desc, m.id desc`;
    if (!f.search) {
      return this.fetchPage(
        sql`select * from message_logs m where ${logWhere(f)}${range} order by ${order} limit ${limit} offset ${skip}`,
      );
    }
    // A search by the target's start. Its matches, found by the target's index
    // (message_logs_target_idx: target, created_at, id, read without the table) and sorted: at once
    // when they are few (the count said at most LOG_COUNT_CAP); when many, first among the newest
    // SEARCH_WALK logs, where a broad prefix's matches are dense, and only if they are not there
    // (targets are sent in order, so a prefix's messages can all lie far back) from the index.
    // (`created_at + interval '0'` orders by the time without letting the time's index serve the order)
    const byTarget = sql`select l.* from (
            select m.id from message_logs m where ${logWhere(f)}
            order by m.created_at + interval '0 s' desc, m.id desc limit ${limit} offset ${offset}) c
          join message_logs l on l.id = c.id`;
    if (fewMatches || walked) return this.fetchPage(byTarget);
    const newest = await this.newestMatches(f, limit, offset);
    return newest.length === limit ? newest : this.fetchPage(byTarget);
  }

  /**
   * A search's page among the newest SEARCH_WALK logs: when it is full, it is the search's page
   * (every log left out is older than all of these); when not, the page is further back.
   */
  newestMatches(f: LogFilter, limit: number, offset: number): Promise<MessageLogItem[]> {
    return this.fetchPage(
      sql`select * from (select * from message_logs m order by m.created_at desc, m.id desc limit ${SEARCH_WALK}) m
          where ${logWhere(f)} order by m.created_at desc, m.id desc limit ${limit} offset ${offset}`,
    );
  }

  /** The rows of a page of logs (SQL selecting message_logs rows), with their member, account and template. */
  private async fetchPage(page: SQL): Promise<MessageLogItem[]> {
    const list = await rows<LogRow>(
      this.db,
      sql`select m.id, m.user_id, trim(u.firstname || ' ' || u.lastname) as name, m.whatsapp_id, w.phonenumber,
                 m.target, m.template_id, m.campaign_id, m.variant_id, left(t.text_wa, 60) as template_text,
                 m.wa_message_id, m.status, m.fee,
                 m.fee_due, m.error, m.created_at, m.sent_at, m.delivered_at, m.read_at
          from (${page}) m
          join users u on u.id = m.user_id
          left join whatsapp_accounts w on w.id = m.whatsapp_id
          left join message_templates t on t.id = m.template_id
          order by m.created_at desc, m.id desc`,
    );
    return list.map((r) => ({
      id: Number(r.id),
      user_id: Number(r.user_id),
      name: r.name ?? '',
      whatsapp_id: r.whatsapp_id === null ? null : Number(r.whatsapp_id),
      phonenumber: r.phonenumber ?? null,
      target: r.target,
      template_id: r.template_id === null ? null : Number(r.template_id),
      template_text: r.template_text ?? null,
      campaign_id: r.campaign_id === null ? null : Number(r.campaign_id),
      variant_id: r.variant_id === null ? null : Number(r.variant_id),
      wa_message_id: r.wa_message_id ?? null,
      status: r.status as MessageLogStatus,
      fee: Number(r.fee),
      fee_due: Number(r.fee_due),
      error: r.error ?? null,
      created_at: new Date(r.created_at).toISOString(),
      sent_at: iso(r.sent_at),
      delivered_at: iso(r.delivered_at),
      read_at: iso(r.read_at),
    }));
  }

  async income(scope: CounterScope, day?: SQL): Promise<number> {
    const [r] = await rows<{ income: Int8 }>(this.db, sql`select ${incomeSql(scope, day)} as income`);
    return Number(r?.income ?? 0);
  }
}
