import { type Db, type Int8, type Numeric, type RawRow, rows } from '@wa/core/db/client';
import type { accountDaily, whatsappAccounts } from '@wa/core/db/schema/index';
import { hourOf, today } from '@wa/core/ledger/daily';
import { coldDay, coldHour } from '@wa/core/ledger/rollups';
import type { ChartsResponse, ReportFigures, ReportRow } from '@wa/shared';
import { type SQL, sql } from 'drizzle-orm';

/** What a report covers: days `from`–`to` (both included, APP_TIMEZONE), one member's or one account's rows. */
export interface ReportFilter {
  from: string;
  to: string;
  userId?: number;
  whatsappId?: number;
}

const FIGURES = sql`coalesce(sum(d.sent), 0) as sent, coalesce(sum(d.delivered), 0) as delivered,
  coalesce(sum(d.read), 0) as read, coalesce(sum(d.failed), 0) as failed,
  coalesce(sum(d.optout), 0) as optout, coalesce(sum(d.income), 0) as income`;

function where(f: ReportFilter): SQL {
  const parts = [sql`d.day between ${f.from}::date and ${f.to}::date`];
  if (f.userId !== undefined) parts.push(sql`d.user_id = ${f.userId}`);
  if (f.whatsappId !== undefined) parts.push(sql`d.whatsapp_id = ${f.whatsappId}`);
  return sql.join(parts, sql` and `);
}

/** A report's figures as SQL answers them: day rows' columns, or their sums (int8, numeric for income). */
type RawFigures = Record<keyof ReportFigures, Int8 | Numeric>;
/** The account's number (left joined: a deleted account has none). */
type AccountNumber = { phonenumber: RawRow<typeof whatsappAccounts>['phonenumber'] };

const figures = (r: RawFigures | undefined): ReportFigures => ({
  sent: Number(r?.sent ?? 0),
  delivered: Number(r?.delivered ?? 0),
  read: Number(r?.read ?? 0),
  failed: Number(r?.failed ?? 0),
  optout: Number(r?.optout ?? 0),
  income: Number(r?.income ?? 0),
});

/**
 * The report's SQL over the ledger's day rows (account_daily): a page is a slice of at most one
 * row per account and day, the totals one sum, whatever the message log holds.
 */
export class ReportRepo {
  constructor(
    private readonly db: Db,
    private readonly timeZone: string,
  ) {}

  /** Today in APP_TIMEZONE, 'YYYY-MM-DD'. */
  async today(): Promise<string> {
    const [r] = await rows<{ d: string }>(this.db, sql`select ${today(this.timeZone)}::text as d`);
    return r.d;
  }

  /**
   * The filter's rows per day, newest first, with their figures: one pass that gives the totals,
   * the page count and where a deep page starts.
   */
  async days(f: ReportFilter): Promise<Array<{ day: string; rows: number; figures: ReportFigures }>> {
    const everybody = f.userId === undefined && f.whatsappId === undefined;
    // everybody's: the folded days (a row a day), then the open days' rows
    const list = await rows<RawFigures & { day: string; n: Int8 }>(
      this.db,
      everybody
        ? sql`select d.day::text as day, sum(d.accounts) as n, ${FIGURES} from ledger_days d
              where ${where(f)} and d.day <= ${coldDay} group by d.day
              union all
              select d.day::text as day, count(*) as n, ${FIGURES} from account_daily d
              where ${where(f)} and d.day > ${coldDay} group by d.day
              order by day desc`
        : sql`select d.day::text as day, count(*) as n, ${FIGURES} from account_daily d where ${where(f)}
              group by d.day order by d.day desc`,
    );
    return list.map((r) => ({ day: r.day, rows: Number(r.n), figures: figures(r) }));
  }

  /**
   * Rows newest day first, then by account. With `days`, a page starts at its own day (the rows of
   * newer days are skipped by the day, not walked): the page's keys are cut from the index in that
   * order (account_daily_day_account_idx), then only its rows are read.
   */
  async page(
    f: ReportFilter,
    limit: number,
    offset: number,
    days?: Array<{ day: string; rows: number }>,
  ): Promise<ReportRow[]> {
    let from = sql``;
    let skip = offset;
    if (days) {
      let before = 0;
      const at = days.find((d) => {
        if (offset < before + d.rows) return true;
        before += d.rows;
        return false;
      });
      if (!at) return [];
      from = sql` and d.day <= ${at.day}::date`;
      skip = offset - before;
    }
    const list = await rows<
      Pick<
        RawRow<typeof accountDaily>,
        'user_id' | 'whatsapp_id' | 'sent' | 'delivered' | 'read' | 'failed' | 'optout' | 'income'
      > &
        AccountNumber & { date: string; name: string }
    >(
      this.db,
      sql`select d.day::text as date, d.user_id, d.whatsapp_id, w.phonenumber,
                 trim(u.firstname || ' ' || u.lastname) as name,
                 d.sent, d.delivered, d.read, d.failed, d.optout, d.income
          from (select d.whatsapp_id, d.day from account_daily d where ${where(f)}${from}
                order by d.day desc nulls last, d.whatsapp_id limit ${limit} offset ${skip}) k
          join account_daily d on d.whatsapp_id = k.whatsapp_id and d.day = k.day
          join users u on u.id = d.user_id
          left join whatsapp_accounts w on w.id = d.whatsapp_id
          order by d.day desc, d.whatsapp_id`,
    );
    return list.map((r) => ({
      date: r.date,
      user_id: Number(r.user_id),
      whatsapp_id: Number(r.whatsapp_id),
      phonenumber: r.phonenumber ?? null,
      name: r.name ?? '',
      ...figures(r),
    }));
  }

  /**
   * What the dashboards draw, for one member or everybody, from the rollups (never the message
   * log): the hours from the folded hours (the member's, or everybody's: user 0) and the open hours'
   * rows; the accounts' week and the income's month from the day rows (everybody's
   * income from the folded days and the open days' rows).
   */
  async charts(userId: number | null): Promise<ChartsResponse> {
    const mine = (col: SQL) => (userId === null ? sql`true` : sql`${col} = ${userId}`);
    const day = today(this.timeZone);
    const since = sql`${hourOf(sql`now() - interval '7 days'`, this.timeZone)}`;
    // three reads at once, on three of the pool's connections: the answer waits for the longest, not the sum
    const [hourly, accounts, income] = await Promise.all([
      rows<{ hour: string; sent: Int8; delivered: Int8; failed: Int8 }>(
        this.db,
        sql`select x.hour, sum(x.sent) as sent, sum(x.delivered) as delivered, sum(x.failed) as failed from (
            select l.hour, l.sent, l.delivered, l.failed from ledger_hours l
            where l.user_id = ${userId ?? 0} and l.hour >= ${since} and l.hour <= ${coldHour}
            union all
            select h.hour, h.sent, h.delivered, h.failed from account_hourly h
            where ${mine(sql`h.user_id`)} and h.hour >= ${since} and h.hour > ${coldHour}
          ) x group by x.hour having sum(x.sent) + sum(x.failed) > 0 order by x.hour`,
      ),
      rows<Pick<RawRow<typeof accountDaily>, 'whatsapp_id'> & AccountNumber & { sent: Int8; delivered: Int8 }>(
        this.db,
        // the week's top 50 first, then their numbers: 50 lookups, not a join of every account's week
        sql`select t.whatsapp_id, w.phonenumber, t.sent, t.delivered from (
            select d.whatsapp_id, sum(d.sent) as sent, sum(d.delivered) as delivered from account_daily d
            where d.day > ${day} - 7 and ${mine(sql`d.user_id`)}
            group by d.whatsapp_id having sum(d.sent) > 0 order by sum(d.sent) desc, d.whatsapp_id limit 50
          ) t left join whatsapp_accounts w on w.id = t.whatsapp_id
          order by t.sent desc, t.whatsapp_id`,
      ),
      rows<{ date: string; income: Numeric }>(
        this.db,
        userId === null
          ? sql`select d.day::text as date, sum(d.income + d.referral_income) as income from ledger_days d
              where d.day > ${day} - 30 and d.day <= ${coldDay} group by d.day
              union all
              select d.day::text as date, sum(d.income + d.referral_income) as income from account_daily d
              where d.day > ${day} - 30 and d.day > ${coldDay} group by d.day
              order by date`
          : sql`select x.date, sum(x.income) as income from (
                select d.day::text as date, d.income from account_daily d where d.day > ${day} - 30 and d.user_id = ${userId}
                union all
                select d.day::text, d.referral_income from account_daily d where d.day > ${day} - 30 and d.referrer_id = ${userId}
              ) x group by x.date order by x.date`,
      ),
    ]);
    return {
      hourly: hourly.map((r) => ({
        hour: new Date(r.hour).toISOString(),
        sent: Number(r.sent),
        delivered: Number(r.delivered),
        failed: Number(r.failed),
      })),
      accounts: accounts.map((r) => {
        const sent = Number(r.sent);
        const delivered = Number(r.delivered);
        return {
          whatsapp_id: Number(r.whatsapp_id),
          phonenumber: r.phonenumber ?? null,
          sent,
          delivered,
          rate: sent ? Math.round((delivered / sent) * 10_000) / 10_000 : 0,
        };
      }),
      income: income.map((r) => ({ date: r.date, income: Number(r.income) })),
    };
  }

  /** The owner of an account, or null when there is no such account. */
  async accountOwner(whatsappId: number): Promise<number | null> {
    const [r] = await rows<Pick<RawRow<typeof accountDaily>, 'user_id'>>(
      this.db,
      sql`select user_id from whatsapp_accounts where id = ${whatsappId}
          union all select user_id from account_daily where whatsapp_id = ${whatsappId} limit 1`,
    );
    return r ? r.user_id : null;
  }
}
