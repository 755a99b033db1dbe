import { AccountsRepo, type SendCounts } from '@wa/core/accounts/accounts.repo';
import { DAILY_CAP, SENT_TODAY } from '@wa/core/accounts/daily-cap';
import { EFFECTIVE_FEE } from '@wa/core/accounts/effective-fee';
import { type Db, preparedRows, rows } from '@wa/core/db/client';
import { dayOf, today } from '@wa/core/ledger/daily';
import type { PayoutOn } from '@wa/shared';
import { sql } from 'drizzle-orm';

/** What a blast needs to know about its account before each message. */
export interface BlastPlan {
  userId: number;
  status: string;
  state: string | null;
  suspended: boolean;
  /** the member's fee per delivered message: their own, else their level's, else the settings' price */
  fee: number;
  referrerId: number | null;
  referralPercent: number;
  /** seconds between messages: the member's own, else the settings', at least the account's interval */
  intervalMin: number;
  intervalMax: number;
  /** settings' fail_streak_pause: this many failed sends in a row pause the account */
  failStreakPause: number;
  /** the daily cap with its warm-up, and the messages sent today */
  dailyCap: number;
  sentToday: number;
  /** the hours blasts may send in ('HH:MM' in APP_TIMEZONE) */
  windowStart: string;
  windowEnd: string;
  /** a scheduled blast waits until then */
  startAt: Date | null;
  /** settings' payout_on: the fee is paid when WhatsApp accepts the message, or held until it is delivered */
  payoutOn: PayoutOn;
}

/** A target number claimed for one send (its row says in_use = 1, claimed_by = the account). */
export interface ClaimedTarget {
  id: number;
  number: string;
  name: string;
}

export interface BlastTemplate {
  id: number;
  media: string | null;
  textWa: string;
}

export interface ReceiverRow {
  id: number;
  count_success: number;
  count_fail: number;
  last_sent: string | null;
  in_use: number;
}

/** An account's figures after a blast message. */
export type AccountCounts = SendCounts;

export async function blastPlan(db: Db, accountId: number): Promise<BlastPlan | null> {
  const [r] = await preparedRows<{
    user_id: number;
    status: string;
    state: string | null;
    suspended: boolean;
    fee: number | string | null;
    referrer_id: number | null;
    referral_percent: number | null;
    imin: number | null;
    imax: number | null;
    account_interval: number | null;
    fail_streak_pause: number | null;
    daily_cap: number | null;
    sent_today: number;
    send_window_start: string | null;
    send_window_end: string | null;
    blast_start_at: Date | string | null;
    payout_on: string | null;
  }>(
    db,
    sql`select w.user_id, w.status, w.state, w.suspended,
               ${EFFECTIVE_FEE} as fee,
               u.referrer_id, coalesce(s.referral_percent, 0) as referral_percent,
               coalesce(u.blast_interval_min, s.interval_min, 1) as imin,
               coalesce(u.blast_interval_max, s.interval_max, 2) as imax,
               w.interval as account_interval, s.fail_streak_pause, ${DAILY_CAP} as daily_cap,
               ${SENT_TODAY} as sent_today, s.send_window_start, s.send_window_end, w.blast_start_at,
               s.payout_on
        from whatsapp_accounts w
        join users u on u.id = w.user_id
        left join levels l on l.id = u.level_id
        left join settings s on s.id = 1
        where w.id = ${accountId}`,
  );
  if (!r) return null;
  // the account's own interval (PUT /whatsapp/interval) is a floor under the member's range
  const imin = Math.max(0, Number(r.imin ?? 0), Number(r.account_interval ?? 0));
  return {
    userId: r.user_id,
    status: r.status,
    state: r.state,
    suspended: r.suspended,
    fee: Math.max(0, Math.floor(Number(r.fee ?? 0))),
    referrerId: r.referrer_id,
    referralPercent: Math.min(100, Math.max(0, Number(r.referral_percent ?? 0))),
    intervalMin: imin,
    intervalMax: Math.max(imin, Number(r.imax ?? imin)),
    failStreakPause: Math.max(1, Number(r.fail_streak_pause ?? 5)),
    dailyCap: Number(r.daily_cap ?? 0),
    sentToday: Number(r.sent_today),
    windowStart: r.send_window_start ?? '00:00',
    windowEnd: r.send_window_end ?? '24:00',
    startAt: r.blast_start_at ? new Date(r.blast_start_at) : null,
    payoutOn: r.payout_on === 'delivered' ? 'delivered' : 'accepted',
  };
}

/**
 * The active template this account used least so far: templates take turns on every account (the
 * account's own use counts, so accounts never wait on each other's template rows).
 */
export async function nextTemplate(db: Db, accountId: number): Promise<BlastTemplate | null> {
  const [t] = await preparedRows<{ id: number; media: string | null; text_wa: string }>(
    db,
    sql`select t.id, t.media, t.text_wa from message_templates t
        left join template_uses u on u.template_id = t.id and u.whatsapp_id = ${accountId}
        where t.status = 'active' order by coalesce(u.uses, 0), t.id limit 1`,
  );
  return t ? { id: t.id, media: t.media, textWa: t.text_wa } : null;
}

/** Whether any target is left to blast (active, never sent to, not claimed). */
export async function hasTargets(db: Db): Promise<boolean> {
  const r = await rows<{ id: number }>(
    db,
    sql`select id from phone_numbers where status = 'active' and last_sent is null and in_use = 0 limit 1`,
  );
  return r.length > 0;
}

/**
 * Claims the next target for this account in one statement: the row is locked with SKIP LOCKED
 * (two senders never get the same number) and marked in use by this account. The message log row
 * is written once, with the outcome; until then the claim lives on the target's row. A claimed
 * number is never claimed again, so no target is messaged twice, even when the worker dies after
 * sending (see `settleAbandoned`).
 */
export async function claimTarget(db: Db, accountId: number): Promise<ClaimedTarget | null> {
  const [r] = await preparedRows<ClaimedTarget>(
    db,
    sql`with t as (
          select id from phone_numbers
          where status = 'active' and last_sent is null and in_use = 0
          order by id limit 1
          for update skip locked
        )
        update phone_numbers p set in_use = 1, claimed_by = ${accountId}::int from t where p.id = t.id
        returning p.id, p.number, p.name`,
  );
  return r ?? null;
}

/**
 * Records a send's outcome in one statement (atomic without a transaction, one round trip, planned
 * once per connection): the log becomes sent (with the member's fee and the referrer's share, paid
 * now or held until delivery by `payoutOn`) or failed; the target is marked sent; the account's
 * counters, its day row of the ledger and its template use move. Every row written belongs to
 * this account or this target, so accounts never wait on each other. Returns null when the claim
 * was already settled elsewhere (a worker that took the account over after this one stalled):
 * nothing is counted twice.
 */
export async function recordOutcome(
  db: Db,
  o: {
    target: ClaimedTarget;
    userId: number;
    accountId: number;
    templateId: number;
    success: boolean;
    fee: number;
    referrerId: number | null;
    referralFee: number;
    payoutOn: PayoutOn;
    error: string | null;
    /** WhatsApp's id of the sent message (rule #1 and receipts name it) */
    waMessageId: string | null;
    /** the text that was sent */
    text: string;
    /** APP_TIMEZONE, whose calendar day the daily cap and the ledger count */
    timeZone: string;
  },
): Promise<{ receiver: ReceiverRow; account: AccountCounts } | null> {
  const s = o.success ? 1 : 0;
  const fee = o.success ? o.fee : 0;
  const referralFee = o.success && o.referrerId !== null ? o.referralFee : 0;
  const now = o.payoutOn === 'accepted';
  const paid = { fee: now ? fee : 0, referral: now ? referralFee : 0 };
  const due = { fee: now ? 0 : fee, referral: now ? 0 : referralFee };
  const [r] = await preparedRows<{
    r_id: number;
    r_count_success: number;
    r_count_fail: number;
    r_last_sent: Date | string | null;
    r_in_use: number;
    count_success: number;
    count_fail: number;
    income: number | string;
    fail_streak: number;
    sent_today: number;
  }>(
    db,
    sql`with p as (
          update phone_numbers
          set in_use = 0, claimed_by = null, last_sent = now(), count_success = count_success + ${s}::int,
              count_fail = count_fail + (1 - ${s}::int)
          where id = ${o.target.id}::int and in_use = 1 and claimed_by = ${o.accountId}::int
          returning id, count_success, count_fail, last_sent, in_use
        ), l as (
          insert into message_logs (user_id, whatsapp_id, phone_number_id, target, status, fee, fee_due, template_id,
            referrer_id, referral_fee, referral_fee_due, error, wa_message_id, text, sent_at)
          select ${o.userId}::int, ${o.accountId}::int, p.id, ${o.target.number}::text,
                 case when ${s}::int = 1 then 'sent' else 'failed' end,
                 ${paid.fee}::int, ${due.fee}::int, ${o.templateId}::int,
                 ${referralFee > 0 ? o.referrerId : null}::int, ${paid.referral}::int, ${due.referral}::int,
                 ${o.error}::text, ${o.waMessageId}::text, ${o.text}::text,
                 case when ${s}::int = 1 then now() end
          from p
          returning id
        ), a as (
          ${AccountsRepo.countSendSql(o.accountId, { success: o.success, fee: paid.fee, timeZone: o.timeZone }, sql`exists (select 1 from l)`)}
        ), d as (
          insert into account_daily as d (whatsapp_id, day, user_id, referrer_id, sent, failed, income, referral_income)
          select ${o.accountId}::int, ${today(o.timeZone)}, ${o.userId}::int, ${o.referrerId}::int,
                 ${s}::int, 1 - ${s}::int, ${paid.fee}::int, ${paid.referral}::int
          from l
          on conflict (whatsapp_id, day) do update
          set sent = d.sent + excluded.sent, failed = d.failed + excluded.failed,
              income = d.income + excluded.income, referral_income = d.referral_income + excluded.referral_income,
              referrer_id = coalesce(excluded.referrer_id, d.referrer_id)
        ), u as (
          insert into template_uses as u (template_id, whatsapp_id, uses)
          select ${o.templateId}::int, ${o.accountId}::int, 1 from l
          on conflict (template_id, whatsapp_id) do update set uses = u.uses + 1
        )
        select p.id as r_id, p.count_success as r_count_success, p.count_fail as r_count_fail,
               p.last_sent as r_last_sent, p.in_use as r_in_use,
               a.count_success, a.count_fail, a.income, a.fail_streak, a.sent_today
        from p, a`,
  );
  if (!r) return null;
  return {
    receiver: {
      id: r.r_id,
      count_success: r.r_count_success,
      count_fail: r.r_count_fail,
      last_sent: r.r_last_sent ? new Date(r.r_last_sent).toISOString() : null,
      in_use: r.r_in_use,
    },
    account: {
      count_success: r.count_success,
      count_fail: r.count_fail,
      income: Number(r.income),
      fail_streak: r.fail_streak,
      sent_today: r.sent_today,
    },
  };
}

/** The member's level now and the next one up (§2 Level), and their accepted messages, as SQL steps. */
const LEVEL_STEPS = (userId: number) => sql`
    cur as (
      select coalesce((select l.requirement_blast from users u join levels l on l.id = u.level_id
                       where u.id = ${userId}), -1) as req
    ), nxt as (
      select l.id, l.requirement_blast from levels l, cur
      where l.requirement_blast > cur.req order by l.requirement_blast, l.id limit 1
    ), n as (
      select coalesce(sum(d.sent), 0) as c from account_daily d where d.user_id = ${userId}
    )`;

/**
 * A member whose accepted messages reach the next level's minimum blast requirement (§2 Level)
 * moves up to it. Levels only go up here (an admin may have set a higher one), one at a time. The
 * count is the member's day rows, so it stays cheap however many messages a member has sent; the
 * blast asks when its own count says the requirement is reached (see BlastRunner).
 */
export async function promote(db: Db, userId: number): Promise<void> {
  await db.execute(sql`with ${LEVEL_STEPS(userId)}
    update users set level_id = nxt.id from nxt, n
    where users.id = ${userId} and n.c >= nxt.requirement_blast`);
}

/** How many more accepted messages the member needs for the next level; null when there is none. */
export async function levelGap(db: Db, userId: number): Promise<number | null> {
  const [r] = await rows<{ gap: string | number }>(
    db,
    sql`with ${LEVEL_STEPS(userId)} select nxt.requirement_blast - n.c as gap from nxt, n`,
  );
  return r ? Number(r.gap) : null;
}

/** Gives a claim back when the message certainly did not leave (the session was not connected). */
export async function releaseTarget(db: Db, accountId: number, target: ClaimedTarget): Promise<void> {
  await db.execute(sql`update phone_numbers set in_use = 0, claimed_by = null
                       where id = ${target.id} and in_use = 1 and claimed_by = ${accountId}`);
}

/**
 * Settles the claims a previous holder of this account left (it died between claiming and
 * recording): whether those messages left is unknown, so they are logged 'unknown' (not paid) and
 * their targets count as sent, never to be messaged again. Returns how many there were.
 */
export async function settleAbandoned(db: Db, accountId: number, timeZone: string): Promise<number> {
  const settled = await rows<{ n: number }>(
    db,
    sql`with p as (
          update phone_numbers p set in_use = 0, claimed_by = null, last_sent = coalesce(p.last_sent, now())
          where p.in_use = 1 and p.claimed_by = ${accountId}
          returning p.id, p.number
        ), l as (
          insert into message_logs (user_id, whatsapp_id, phone_number_id, target, status, error)
          select w.user_id, w.id, p.id, p.number, 'unknown', 'The worker stopped while sending: delivery unknown.'
          from p join whatsapp_accounts w on w.id = ${accountId}
          returning user_id
        ), d as (
          insert into account_daily as d (whatsapp_id, day, user_id, unknown)
          select ${accountId}, ${today(timeZone)}, min(l.user_id), count(*) from l having count(*) > 0
          on conflict (whatsapp_id, day) do update set unknown = d.unknown + excluded.unknown
        )
        select count(*)::int as n from l`,
  );
  return Number(settled[0]?.n ?? 0);
}
