import { sql } from 'drizzle-orm';
import { type Db, rows } from '../db/client';
import { HOURLY_KEEP_DAYS, hourOf, today } from './daily';
import { moneyTotalDifferences, poolCountDifferences } from './pool-counts';

/**
 * The ledger's rollups (issue 23), so that every chart and counter reads a bounded number of rows
 * whatever the history's length:
 *
 * - account_hourly: each account's hour, written by the account's holder in the statement that
 *   writes its day row (the engine's outcome, revision and receipt statements), so accounts never
 *   wait on each other. A member's chart reads their accounts' hours of the week.
 * - ledger_days, ledger_hours, ledger_totals: everybody's days, each user's and everybody's hours
 *   (user 0) and running totals, folded by one engine at a time (`foldLedger`, every LEDGER_FOLD_MS) from the day and
 *   hour rows of the periods it has closed: days up to `cold_through` (two days ago) and hours up to
 *   `hours_through` (three hours ago). A read adds the later days or hours from the rows themselves
 *   (`coldDay`, `coldHour`), so a figure is exact up to the last fold's view of closed periods, and
 *   exact for the open ones; if no engine folds, the open part grows and reads stay right, only slower.
 *
 * A closed period changes only by a late receipt (a message delivered days after it was sent) or a
 * member's deletion; the next fold takes it in.
 */

/** Days later than today minus this are read from the day rows (a receipt mostly comes within a day). */
export const HOT_DAYS = 2;
/** Hours later than the current one minus this are read from the hour rows. */
export const HOT_HOURS = 3;
/** How often an engine folds (each fold reads the closed periods' rows once). */
export const LEDGER_FOLD_MS = 60_000;

/** Only one process folds at a time (pg_try_advisory_xact_lock). */
const FOLD_LOCK = 7_219_023;

/**
 * The last day in the folded tables ('-infinity' before the first fold): later days are read from
 * account_daily. A STABLE function of migration 0019 (the planner estimates `day > ledger_cold_day()`
 * as the open days it is; a subquery it would take for a third of every day row).
 */
export const coldDay = sql`ledger_cold_day()`;
/** The last hour in ledger_hours ('-infinity' before the first fold): later hours are read from account_hourly. */
export const coldHour = sql`ledger_cold_hour()`;

/**
 * Folds the closed periods into ledger_days, ledger_hours and ledger_totals, moves the fold's marks
 * and prunes account_hourly past its week, in one transaction; rows whose figures did not move are
 * not rewritten. False when another process is folding now.
 */
export async function foldLedger(db: Db, timeZone: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [lock] = await rows<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${FOLD_LOCK}) as ok`);
    if (!lock?.ok) return false;
    const through = sql`(${today(timeZone)} - ${HOT_DAYS}::int)`;
    const hoursThrough = sql`(${hourOf(sql`now()`, timeZone)} - make_interval(hours => ${HOT_HOURS}::int))`;
    const keepFrom = sql`(now() - make_interval(days => ${HOURLY_KEEP_DAYS}::int))`;
    await tx.execute(sql`
      with n as (
        select d.day, count(*)::int as accounts, sum(d.sent) as sent, sum(d.delivered) as delivered, sum(d.read) as read,
               sum(d.failed) as failed, sum(d.unknown) as unknown, sum(d.optout) as optout, sum(d.income) as income,
               sum(d.referral_income) as referral_income
        from account_daily d where d.day <= ${through} group by d.day
      ), gone as (
        delete from ledger_days l where not exists (select 1 from n where n.day = l.day)
      )
      insert into ledger_days as l (day, accounts, sent, delivered, read, failed, unknown, optout, income, referral_income)
      select * from n
      on conflict (day) do update set accounts = excluded.accounts, sent = excluded.sent, delivered = excluded.delivered,
        read = excluded.read, failed = excluded.failed, unknown = excluded.unknown, optout = excluded.optout,
        income = excluded.income, referral_income = excluded.referral_income
      where (l.accounts, l.sent, l.delivered, l.read, l.failed, l.unknown, l.optout, l.income, l.referral_income)
        is distinct from (excluded.accounts, excluded.sent, excluded.delivered, excluded.read, excluded.failed,
          excluded.unknown, excluded.optout, excluded.income, excluded.referral_income)`);
    await tx.execute(sql`
      with n as (
        select x.user_id, sum(x.sent) as sent, sum(x.failed) as failed, sum(x.income) as income,
               sum(x.referral_income) as referral_income
        from (
          select d.user_id, d.sent, d.failed, d.income, 0 as referral_income from account_daily d where d.day <= ${through}
          union all
          select d.referrer_id, 0, 0, 0, d.referral_income from account_daily d
          where d.day <= ${through} and d.referrer_id is not null and d.referral_income <> 0
          union all
          select 0, l.sent, l.failed, l.income, l.referral_income from ledger_days l
        ) x group by x.user_id
      ), gone as (
        delete from ledger_totals t where not exists (select 1 from n where n.user_id = t.user_id)
      )
      insert into ledger_totals as t (user_id, sent, failed, income, referral_income)
      select * from n
      on conflict (user_id) do update set sent = excluded.sent, failed = excluded.failed, income = excluded.income,
        referral_income = excluded.referral_income
      where (t.sent, t.failed, t.income, t.referral_income)
        is distinct from (excluded.sent, excluded.failed, excluded.income, excluded.referral_income)`);
    await tx.execute(sql`delete from account_hourly where hour < ${keepFrom}`);
    await tx.execute(sql`
      with n as (
        select coalesce(h.user_id, 0) as user_id, h.hour, sum(h.sent) as sent, sum(h.delivered) as delivered,
               sum(h.failed) as failed
        from account_hourly h where h.hour <= ${hoursThrough} group by grouping sets ((h.user_id, h.hour), (h.hour))
      ), gone as (
        delete from ledger_hours l where not exists (select 1 from n where n.user_id = l.user_id and n.hour = l.hour)
      )
      insert into ledger_hours as l (user_id, hour, sent, delivered, failed)
      select * from n
      on conflict (user_id, hour) do update set sent = excluded.sent, delivered = excluded.delivered,
        failed = excluded.failed
      where (l.sent, l.delivered, l.failed) is distinct from (excluded.sent, excluded.delivered, excluded.failed)`);
    await tx.execute(sql`
      insert into ledger_folds (name, cold_through, hours_through, folded_at)
      values ('ledger', ${through}, ${hoursThrough}, now())
      on conflict (name) do update set cold_through = excluded.cold_through, hours_through = excluded.hours_through,
        folded_at = excluded.folded_at`);
    return true;
  });
}

/** One account hour's figures, as a recount from the message log makes them. */
export interface HourlyRow {
  whatsapp_id: number;
  hour: string;
  user_id: number;
  sent: number;
  delivered: number;
  failed: number;
}

const hourly = (r: Record<string, unknown>): HourlyRow => ({
  whatsapp_id: Number(r.whatsapp_id),
  hour: new Date(r.hour as string).toISOString(),
  user_id: Number(r.user_id),
  sent: Number(r.sent),
  delivered: Number(r.delivered),
  failed: Number(r.failed),
});
const byHour = (a: HourlyRow, b: HourlyRow) => a.whatsapp_id - b.whatsapp_id || a.hour.localeCompare(b.hour);

/**
 * The hour rows of the kept week (from `since`) as a recount of the message log makes them, ordered
 * by account and hour (rows with nothing in them left out).
 */
export async function recountHourly(db: Db, timeZone: string, since: Date): Promise<HourlyRow[]> {
  const list = await rows<Record<string, unknown>>(
    db,
    sql`select coalesce(m.whatsapp_id, -m.user_id) as whatsapp_id, ${hourOf(sql`m.created_at`, timeZone)} as hour,
               min(m.user_id) as user_id,
               count(*) filter (where m.status in ('sent', 'delivered', 'read'))::int as sent,
               count(*) filter (where m.status in ('delivered', 'read'))::int as delivered,
               count(*) filter (where m.status = 'failed')::int as failed
        from message_logs m where m.status <> 'pending' and m.created_at >= ${since.toISOString()}::timestamptz
        group by 1, 2`,
  );
  return list
    .map(hourly)
    .filter((r) => r.sent || r.delivered || r.failed)
    .sort(byHour);
}

/** The hour rows as the engine kept them, from `since`, ordered like `recountHourly`. */
export async function storedHourly(db: Db, since: Date): Promise<HourlyRow[]> {
  const list = await rows<Record<string, unknown>>(
    db,
    sql`select whatsapp_id, hour, user_id, sent, delivered, failed from account_hourly
        where hour >= ${since.toISOString()}::timestamptz`,
  );
  return list
    .map(hourly)
    .filter((r) => r.sent || r.delivered || r.failed)
    .sort(byHour);
}

/**
 * Where the folded tables differ from what the day and hour rows make of the periods the last fold
 * closed: empty when they agree. Read in the caller's transaction (one snapshot with the rows).
 */
export async function foldDifferences(db: Db): Promise<string[]> {
  const diffs = await rows<{ what: string }>(
    db,
    sql`with f as (select cold_through as cold, hours_through as hours from ledger_folds where name = 'ledger'),
        d as (
          select d.day, count(*)::int as accounts, sum(d.sent)::bigint as sent, sum(d.delivered)::bigint as delivered,
                 sum(d.read)::bigint as read, sum(d.failed)::bigint as failed, sum(d.unknown)::bigint as unknown,
                 sum(d.optout)::bigint as optout, sum(d.income)::bigint as income,
                 sum(d.referral_income)::bigint as referral_income
          from account_daily d, f where d.day <= f.cold group by d.day
        ), h as (
          select coalesce(h.user_id, 0) as user_id, h.hour, sum(h.sent)::bigint as sent,
                 sum(h.delivered)::bigint as delivered, sum(h.failed)::bigint as failed
          from account_hourly h, f where h.hour <= f.hours group by grouping sets ((h.user_id, h.hour), (h.hour))
        ), u as (
          select x.user_id, sum(x.sent)::bigint as sent, sum(x.failed)::bigint as failed, sum(x.income)::bigint as income,
                 sum(x.referral_income)::bigint as referral_income
          from (
            select d.user_id, d.sent, d.failed, d.income, 0 as referral_income from account_daily d, f where d.day <= f.cold
            union all
            select d.referrer_id, 0, 0, 0, d.referral_income from account_daily d, f
            where d.day <= f.cold and d.referrer_id is not null and d.referral_income <> 0
            union all
            select 0, d.sent, d.failed, d.income, d.referral_income from account_daily d, f where d.day <= f.cold
          ) x group by x.user_id
        )
        select 'day ' || coalesce(d.day, l.day)::text as what
        from d full join ledger_days l on l.day = d.day
        where (d.accounts, d.sent, d.delivered, d.read, d.failed, d.unknown, d.optout, d.income, d.referral_income)
          is distinct from (l.accounts, l.sent, l.delivered, l.read, l.failed, l.unknown, l.optout, l.income, l.referral_income)
        union all
        select 'hour ' || coalesce(h.hour, l.hour)::text || ' of user ' || coalesce(h.user_id, l.user_id)::text
        from h full join ledger_hours l on l.hour = h.hour and l.user_id = h.user_id
        where (h.sent, h.delivered, h.failed) is distinct from (l.sent, l.delivered, l.failed)
        union all
        select 'user ' || coalesce(u.user_id, t.user_id)::text
        from u full join ledger_totals t on t.user_id = u.user_id
        where (coalesce(u.sent, 0), coalesce(u.failed, 0), coalesce(u.income, 0), coalesce(u.referral_income, 0))
          is distinct from (coalesce(t.sent, 0), coalesce(t.failed, 0), coalesce(t.income, 0), coalesce(t.referral_income, 0))`,
  );
  return diffs.map((d) => d.what);
}

/**
 * What a recount finds wrong with the rollups, empty when they agree: the hour rows of the last
 * seven days against a recount of the message log (older kept rows may be pruned at any fold), the
 * folded tables against the day and hour rows of the periods the last fold closed, the pool's
 * blast counts against a count of the pool, and everybody's money totals against their rows. Read in one
 * snapshot (a repeatable-read transaction), so a blast may run meanwhile.
 */
export async function rollupDifferences(db: Db, timeZone: string): Promise<string[]> {
  return db.transaction(
    async (tx) => {
      // from an hour's start, so that the first hour row and the recount cover the same messages
      const [start] = await rows<{ x: string | Date }>(
        tx,
        sql`select ${hourOf(sql`now() - interval '7 days'`, timeZone)} as x`,
      );
      const since = new Date(start?.x ?? 0);
      const [stored, recount] = [await storedHourly(tx, since), await recountHourly(tx, timeZone, since)];
      const key = (r: HourlyRow) => `${r.whatsapp_id}@${r.hour}`;
      const want = new Map(recount.map((r) => [key(r), r]));
      const have = new Map(stored.map((r) => [key(r), r]));
      const diffs: string[] = [];
      for (const k of new Set([...want.keys(), ...have.keys()])) {
        const [w, s] = [want.get(k), have.get(k)];
        if (JSON.stringify(w) !== JSON.stringify(s)) {
          diffs.push(`hour row ${k}: kept ${JSON.stringify(s ?? null)}, recount ${JSON.stringify(w ?? null)}`);
        }
      }
      return [
        ...diffs,
        ...(await foldDifferences(tx)).map((d) => `folded ${d}`),
        ...(await poolCountDifferences(tx)),
        ...(await moneyTotalDifferences(tx)),
      ];
    },
    { isolationLevel: 'repeatable read' },
  );
}
