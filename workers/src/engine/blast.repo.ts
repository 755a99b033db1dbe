import { AccountsRepo, type SendCounts } from '@wa/core/accounts/accounts.repo';
import { DAILY_CAP, SENT_TODAY } from '@wa/core/accounts/daily-cap';
import { EFFECTIVE_FEE } from '@wa/core/accounts/effective-fee';
import { type Db, rows } from '@wa/core/db/client';
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
}

/** A target number claimed for one send, with the pending message log that holds the claim. */
export interface ClaimedTarget {
  id: number;
  number: string;
  name: string;
  logId: number;
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

/** message_logs.status values; only 'success' and 'fail' are counted and paid */
export type LogStatus = 'pending' | 'success' | 'fail' | 'unknown';

export async function blastPlan(db: Db, accountId: number): Promise<BlastPlan | null> {
  const [r] = await rows<{
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
  }>(
    db,
    sql`select w.user_id, w.status, w.state, w.suspended,
               ${EFFECTIVE_FEE} as fee,
               u.referrer_id, coalesce(s.referral_percent, 0) as referral_percent,
               coalesce(u.blast_interval_min, s.interval_min, 1) as imin,
               coalesce(u.blast_interval_max, s.interval_max, 2) as imax,
               w.interval as account_interval, s.fail_streak_pause, ${DAILY_CAP} as daily_cap,
               ${SENT_TODAY} as sent_today, s.send_window_start, s.send_window_end, w.blast_start_at
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
  };
}

/** The active template used least so far: templates take turns. */
export async function nextTemplate(db: Db): Promise<BlastTemplate | null> {
  const [t] = await rows<{ id: number; media: string | null; text_wa: string }>(
    db,
    sql`select id, media, text_wa from message_templates where status = 'active' order by count_use, id limit 1`,
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
 * (two senders never get the same number), marked in use, and a pending message log records the
 * claim. A claimed number is never claimed again, so no target is messaged twice, even when the
 * worker dies after sending (see `settleAbandoned`).
 */
export async function claimTarget(db: Db, userId: number, accountId: number): Promise<ClaimedTarget | null> {
  const [r] = await rows<{ id: number; number: string; name: string; log_id: number }>(
    db,
    sql`with t as (
          select id from phone_numbers
          where status = 'active' and last_sent is null and in_use = 0
          order by id limit 1
          for update skip locked
        ), p as (
          update phone_numbers p set in_use = 1 from t where p.id = t.id
          returning p.id, p.number, p.name
        ), l as (
          insert into message_logs (user_id, whatsapp_id, phone_number_id, target, status)
          select ${userId}, ${accountId}, p.id, p.number, 'pending' from p
          returning id, phone_number_id
        )
        select p.id, p.number, p.name, l.id as log_id from p join l on l.phone_number_id = p.id`,
  );
  return r ? { id: r.id, number: r.number, name: r.name, logId: r.log_id } : null;
}

/**
 * Records a send's outcome in one transaction: the log becomes success (with the member's fee and
 * the referrer's share) or fail, the target is marked sent, the account's counters and income and
 * the template's use count move. Returns null when the claim was already settled elsewhere (a
 * worker that took the account over after this one stalled): nothing is counted twice.
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
    error: string | null;
    /** WhatsApp's id of the sent message (rule #1 and receipts name it) */
    waMessageId: string | null;
    /** the text that was sent */
    text: string;
    /** APP_TIMEZONE, whose calendar day the daily cap counts */
    timeZone: string;
  },
): Promise<{ receiver: ReceiverRow; account: AccountCounts } | null> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const fee = o.success ? o.fee : 0;
    const referralFee = o.success && o.referrerId !== null ? o.referralFee : 0;
    const settled = await rows<{ id: number }>(
      t,
      sql`update message_logs
          set status = ${o.success ? 'success' : 'fail'}, fee = ${fee}, template_id = ${o.templateId},
              referrer_id = ${referralFee > 0 ? o.referrerId : null}, referral_fee = ${referralFee},
              error = ${o.error}, wa_message_id = ${o.waMessageId}, text = ${o.text},
              sent_at = ${o.success ? sql`now()` : null}, created_at = now()
          where id = ${o.target.logId} and status = 'pending'
          returning id`,
    );
    if (!settled.length) return null;
    const s = o.success ? 1 : 0;
    const f = o.success ? 0 : 1;
    const [receiver] = await rows<ReceiverRow>(
      t,
      sql`update phone_numbers
          set in_use = 0, last_sent = now(), count_success = count_success + ${s}, count_fail = count_fail + ${f}
          where id = ${o.target.id}
          returning id, count_success, count_fail, last_sent, in_use`,
    );
    const account = await new AccountsRepo(t).countSend(o.accountId, { success: o.success, fee, timeZone: o.timeZone });
    await t.execute(sql`update message_templates set count_use = count_use + 1 where id = ${o.templateId}`);
    if (o.success) await promote(t, o.userId);
    if (!receiver || !account) return null;
    return {
      receiver: { ...receiver, last_sent: receiver.last_sent ? new Date(receiver.last_sent).toISOString() : null },
      account,
    };
  });
}

/**
 * A member whose delivered messages reach the next level's minimum blast requirement (§2 Level)
 * moves up to it. Levels only go up here (an admin may have set a higher one), one at a time, and
 * the count stops at the requirement, so it stays cheap however many messages a member has sent.
 */
async function promote(db: Db, userId: number): Promise<void> {
  await db.execute(sql`
    with cur as (
      select coalesce((select l.requirement_blast from users u join levels l on l.id = u.level_id
                       where u.id = ${userId}), -1) as req
    ), nxt as (
      select l.id, l.requirement_blast from levels l, cur
      where l.requirement_blast > cur.req order by l.requirement_blast, l.id limit 1
    ), n as (
      select count(*) as c from (
        select 1 from message_logs where user_id = ${userId} and status = 'success'
        limit coalesce((select requirement_blast from nxt), 0)
      ) x
    )
    update users set level_id = nxt.id from nxt, n
    where users.id = ${userId} and n.c >= nxt.requirement_blast`);
}

/** Gives a claim back when the message certainly did not leave (the session was not connected). */
export async function releaseTarget(db: Db, target: ClaimedTarget): Promise<void> {
  await db.transaction(async (tx) => {
    const released = await rows<{ id: number }>(
      tx as unknown as Db,
      sql`delete from message_logs where id = ${target.logId} and status = 'pending' returning id`,
    );
    if (released.length) await tx.execute(sql`update phone_numbers set in_use = 0 where id = ${target.id}`);
  });
}

/**
 * Settles the claims a previous holder of this account left pending (it died between claiming and
 * recording): whether those messages left is unknown, so they are logged 'unknown' (not paid) and
 * their targets count as sent, never to be messaged again. Returns how many there were.
 */
export async function settleAbandoned(db: Db, accountId: number): Promise<number> {
  const settled = await rows<{ phone_number_id: number | null }>(
    db,
    sql`with l as (
          update message_logs
          set status = 'unknown', error = 'The worker stopped while sending: delivery unknown.'
          where whatsapp_id = ${accountId} and status = 'pending'
          returning phone_number_id
        ), p as (
          update phone_numbers p set in_use = 0, last_sent = coalesce(p.last_sent, now())
          from l where p.id = l.phone_number_id
          returning p.id
        )
        select phone_number_id from l`,
  );
  return settled.length;
}
