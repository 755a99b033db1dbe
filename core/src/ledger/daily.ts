import { sql } from 'drizzle-orm';
import { type Db, rows } from '../db/client';

/**
 * The ledger's day rows (account_daily, see its schema): the figures of each account's day, which
 * every counter, balance, report and chart reads. The engine writes them in the statement that
 * changes a message log; this module holds what is written about them in one place.
 */

/** The calendar day (APP_TIMEZONE) of a timestamptz expression: the day row a message counts on. */
export const dayOf = (ts: ReturnType<typeof sql>, timeZone: string) =>
  sql`((${ts}) at time zone ${timeZone}::text)::date`;

/** The start of the hour (`timeZone`'s clock) of a timestamptz expression: the hour row (account_hourly) a message counts on. */
export const hourOf = (ts: ReturnType<typeof sql>, timeZone: string) =>
  sql`date_trunc('hour', ${ts}, ${timeZone}::text)`;

/** account_hourly keeps this many days (the charts show seven; see rollups.ts). */
export const HOURLY_KEEP_DAYS = 8;

/** Today in `timeZone`, as a date. */
export const today = (timeZone: string) => dayOf(sql`now()`, timeZone);

/** One account day's figures, as a recount from the message log makes them. */
export interface DailyRow {
  whatsapp_id: number;
  day: string;
  user_id: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  unknown: number;
  optout: number;
  income: number;
  referral_income: number;
}

/**
 * The day rows recounted from the message log and the opt-outs: what account_daily must hold.
 * Logs whose account was deleted count under -user_id (as migration 0008 filed them).
 */
function recountSql(timeZone: string) {
  return sql`
    with m as (
      select coalesce(m.whatsapp_id, -m.user_id) as whatsapp_id, ${dayOf(sql`m.created_at`, timeZone)} as day,
        min(m.user_id) as user_id, max(m.referrer_id) as referrer_id,
        count(*) filter (where m.status in ('sent', 'delivered', 'read'))::int as sent,
        count(*) filter (where m.status in ('delivered', 'read'))::int as delivered,
        count(*) filter (where m.status = 'read')::int as read,
        count(*) filter (where m.status = 'failed')::int as failed,
        count(*) filter (where m.status = 'unknown')::int as unknown,
        coalesce(sum(m.fee), 0)::bigint as income,
        coalesce(sum(case when m.referrer_id is null then 0 else m.referral_fee end), 0)::bigint as referral_income
      from message_logs m where m.status <> 'pending'
      group by 1, 2
    ), o as (
      select i.whatsapp_id, ${dayOf(sql`i.created_at`, timeZone)} as day, min(w.user_id) as user_id, count(*)::int as optout
      from incoming_messages i join whatsapp_accounts w on w.id = i.whatsapp_id
      where i.optout group by 1, 2
    )
    select coalesce(m.whatsapp_id, o.whatsapp_id) as whatsapp_id, coalesce(m.day, o.day)::text as day,
      coalesce(m.user_id, o.user_id) as user_id, m.referrer_id,
      coalesce(m.sent, 0) as sent, coalesce(m.delivered, 0) as delivered, coalesce(m.read, 0) as read,
      coalesce(m.failed, 0) as failed, coalesce(m.unknown, 0) as unknown, coalesce(o.optout, 0) as optout,
      coalesce(m.income, 0) as income, coalesce(m.referral_income, 0) as referral_income
    from m full join o on o.whatsapp_id = m.whatsapp_id and o.day = m.day`;
}

const FIGURES = ['sent', 'delivered', 'read', 'failed', 'unknown', 'optout', 'income', 'referral_income'] as const;

function normal(r: Record<string, unknown>): DailyRow {
  const n = (k: string) => Number(r[k] ?? 0);
  return {
    whatsapp_id: n('whatsapp_id'),
    day: String(r.day).slice(0, 10),
    user_id: n('user_id'),
    sent: n('sent'),
    delivered: n('delivered'),
    read: n('read'),
    failed: n('failed'),
    unknown: n('unknown'),
    optout: n('optout'),
    income: n('income'),
    referral_income: n('referral_income'),
  };
}

const byKey = (a: DailyRow, b: DailyRow) => a.whatsapp_id - b.whatsapp_id || a.day.localeCompare(b.day);

/** The day rows as a full recount from the message log makes them, ordered by account and day. */
export async function recountDaily(db: Db, timeZone: string): Promise<DailyRow[]> {
  return (await rows<Record<string, unknown>>(db, recountSql(timeZone))).map(normal).sort(byKey);
}

/** The day rows as the engine kept them, ordered like `recountDaily` (rows with nothing in them left out). */
export async function storedDaily(db: Db): Promise<DailyRow[]> {
  const list = await rows<Record<string, unknown>>(
    db,
    sql`select whatsapp_id, day::text as day, user_id, ${sql.raw(FIGURES.join(', '))} from account_daily`,
  );
  return list
    .map(normal)
    .filter((r) => FIGURES.some((k) => r[k] !== 0))
    .sort(byKey);
}

/**
 * Rebuilds every day row, and the hour rows of the kept week, from the message log: for data
 * written around the engine (a restore, tests that insert logs directly). The folded tables are
 * emptied (reads take the rows until the next fold, see rollups.ts). Rows are written in time order,
 * as the engine writes them through the days (a period's rows lie together). Runs in one transaction.
 */
export async function rebuildDaily(db: Db, timeZone: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`delete from account_daily`);
    await tx.execute(sql`
      insert into account_daily (whatsapp_id, day, user_id, referrer_id, sent, delivered, read, failed, unknown,
        optout, income, referral_income)
      select whatsapp_id, day::date, user_id, referrer_id, sent, delivered, read, failed, unknown, optout, income,
        referral_income
      from (${recountSql(timeZone)}) r
      order by day, whatsapp_id`);
    await tx.execute(sql`delete from account_hourly`);
    await tx.execute(sql`
      insert into account_hourly (whatsapp_id, hour, user_id, sent, delivered, failed)
      select coalesce(m.whatsapp_id, -m.user_id), ${hourOf(sql`m.created_at`, timeZone)}, min(m.user_id),
             count(*) filter (where m.status in ('sent', 'delivered', 'read')),
             count(*) filter (where m.status in ('delivered', 'read')),
             count(*) filter (where m.status = 'failed')
      from message_logs m
      where m.status <> 'pending' and m.created_at >= now() - make_interval(days => ${HOURLY_KEEP_DAYS}::int)
      group by 1, 2
      order by 2, 1`);
    for (const t of ['ledger_folds', 'ledger_days', 'ledger_hours', 'ledger_totals']) {
      await tx.execute(sql`delete from ${sql.identifier(t)}`);
    }
  });
}
