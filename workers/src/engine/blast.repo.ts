import type { SendCounts } from '@wa/core/accounts/accounts.repo';
import { DAILY_CAP, SENT_TODAY } from '@wa/core/accounts/daily-cap';
import { EFFECTIVE_FEE } from '@wa/core/accounts/effective-fee';
import { type Db, type Int8, type Nullable, preparedRows, type RawRow, rows } from '@wa/core/db/client';
import type { messageTemplates, phoneNumbers, settings, users, whatsappAccounts } from '@wa/core/db/schema/index';
import { today } from '@wa/core/ledger/daily';
import { coldDay } from '@wa/core/ledger/rollups';
import type { PayoutOn } from '@wa/shared';
import { type SQL, sql } from 'drizzle-orm';

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

/**
 * A target number claimed for one send (its row says in_use = 1, claimed_by = the account): of the
 * default pool (campaign_id null) or of a campaign.
 */
export type ClaimedTarget = Pick<RawRow<typeof phoneNumbers>, 'id' | 'number' | 'name' | 'campaign_id'>;

export interface BlastTemplate {
  id: number;
  media: string | null;
  textWa: string;
}

/** A target's counts after a send or a receipt; `last_sent` as text (ISO from the outcome, PostgreSQL's in JSON). */
export type ReceiverRow = Pick<
  RawRow<typeof phoneNumbers>,
  'id' | 'count_success' | 'count_fail' | 'last_sent' | 'in_use'
>;

/** An account's figures after a blast message. */
export type AccountCounts = SendCounts;

/**
 * What blastPlan selects (a prepared statement: `blast_start_at` is a Date on PostgreSQL, text on
 * PGlite): the account's columns, its member's referrer, the settings' (left joined), and the
 * effective fee, intervals and daily cap.
 */
type PlanRow = Pick<
  RawRow<typeof whatsappAccounts, Date | string>,
  'user_id' | 'status' | 'state' | 'suspended' | 'blast_start_at'
> &
  Pick<RawRow<typeof users>, 'referrer_id'> &
  Nullable<
    Pick<RawRow<typeof settings>, 'fail_streak_pause' | 'send_window_start' | 'send_window_end' | 'payout_on'>
  > & {
    /** EFFECTIVE_FEE (null: no settings row) */
    fee: number | null;
    referral_percent: number;
    imin: number;
    imax: number;
    account_interval: RawRow<typeof whatsappAccounts>['interval'];
    daily_cap: number | null;
    sent_today: number;
  };

export async function blastPlan(db: Db, accountId: number): Promise<BlastPlan | null> {
  const [r] = await preparedRows<PlanRow>(
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

/** An active template with how often this account sent it. */
export interface UsedTemplate extends BlastTemplate {
  uses: number;
}

/**
 * The active templates with this account's own use counts: the blast takes the one it used least
 * (templates take turns on every account, and accounts never wait on each other's template rows).
 */
export async function activeTemplates(db: Db, accountId: number): Promise<UsedTemplate[]> {
  const list = await preparedRows<Pick<RawRow<typeof messageTemplates>, 'id' | 'media' | 'text_wa'> & { uses: number }>(
    db,
    sql`select t.id, t.media, t.text_wa, coalesce(u.uses, 0)::int as uses from message_templates t
        left join template_uses u on u.template_id = t.id and u.whatsapp_id = ${accountId}::int
        where t.status = 'active' and t.campaign_id is null order by t.id`,
  );
  return list.map((t) => ({ id: t.id, media: t.media, textWa: t.text_wa, uses: Number(t.uses) }));
}

/** The template used least (the first of them by id): templates take turns. */
export function leastUsed(templates: UsedTemplate[]): UsedTemplate | null {
  let best: UsedTemplate | null = null;
  for (const t of templates) if (!best || t.uses < best.uses) best = t;
  return best;
}

/**
 * The pool's next `n` targets a claim takes: active, never sent, not claimed, in the order of
 * phone_numbers_unblasted_idx (campaign_id, id), so the claim reads that index in order. "order by
 * id" alone cannot use it (its first column is campaign_id) and walked the primary key past every
 * number already sent (bench/README.md, issue 22).
 */
export const poolPick = (n: number) =>
  sql`select id from phone_numbers
      where campaign_id is null and status = 'active' and last_sent is null and in_use = 0
      order by campaign_id, id limit ${n}::int`;

/**
 * Claims the next `n` targets for this account in one statement: the rows are locked with SKIP
 * LOCKED (two senders never get the same number) and marked in use by this account. The first is
 * marked started (claim_started): its send may begin once this commits; each outcome marks the
 * next one started in its own statement (`outcomesSql`'s `next`, outcome.repo.ts). So a blast at full speed
 * commits about once per message, and a worker that dies leaves at most one started claim, which
 * the next holder logs as unknown and never sends again; the others go back to the pool (see
 * `settleAbandoned`). The message log row is written once, with the outcome.
 */
export async function claimTargets(db: Db, accountId: number, n: number): Promise<ClaimedTarget[]> {
  const list = await preparedRows<ClaimedTarget>(
    db,
    sql`with t as (
          ${poolPick(n)}
          for update skip locked
        )
        update phone_numbers p
        set in_use = 1, claimed_by = ${accountId}::int, claim_started = (p.id = (select min(id) from t))
        from t where p.id = t.id
        returning p.id, p.number, p.name, p.campaign_id`,
  );
  return list.sort((a, b) => a.id - b.id);
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
      select coalesce((select t.sent from ledger_totals t where t.user_id = ${userId}), 0) + coalesce(sum(d.sent), 0) as c
      from account_daily d where d.user_id = ${userId} and d.day > ${coldDay}
    )`;

/**
 * A member whose accepted messages reach the next level's minimum blast requirement (§2 Level)
 * moves up to it. Levels only go up here (an admin may have set a higher one), one at a time. The
 * count is the member's running total and their open days' rows (core/src/ledger/rollups.ts), so it stays cheap however long their history; the
 * blast asks when its own count says the requirement is reached (see BlastRunner).
 */
export async function promote(db: Db, userId: number): Promise<boolean> {
  const r = await rows<{ id: number }>(
    db,
    sql`with ${LEVEL_STEPS(userId)}
        update users set level_id = nxt.id from nxt, n
        where users.id = ${userId} and n.c >= nxt.requirement_blast
        returning users.id`,
  );
  return r.length > 0;
}

/** How many more accepted messages the member needs for the next level; null when there is none. */
export async function levelGap(db: Db, userId: number): Promise<number | null> {
  // prepared: a blast asks every 50 messages, and planning it took 20 times longer than running it
  const [r] = await preparedRows<{ gap: Int8 }>(
    db,
    sql`with ${LEVEL_STEPS(userId)} select nxt.requirement_blast - n.c as gap from nxt, n`,
  );
  return r ? Number(r.gap) : null;
}

/**
 * The step after a statement that gave claims back (`released`: their rows' campaign_id): each
 * campaign's budget gets its share back (see campaigns.reserved).
 */
export const RETURN_RESERVED = (released: SQL) => sql`
    update campaigns c set reserved = greatest(0, c.reserved - g.n)
    from (select campaign_id, count(*)::int as n from ${released} r where r.campaign_id is not null
          group by campaign_id) g
    where c.id = g.campaign_id`;

/** Gives claims back: messages that certainly did not leave (not sent yet, or the session was not connected). */
export async function releaseTargets(db: Db, accountId: number, targets: ClaimedTarget[]): Promise<void> {
  if (!targets.length) return;
  await db.execute(sql`with p as (
                         update phone_numbers set in_use = 0, claimed_by = null, claim_started = false
                         where id in ${targets.map((t) => t.id)} and in_use = 1 and claimed_by = ${accountId}
                         returning campaign_id
                       ), c as (${RETURN_RESERVED(sql`p`)})
                       select 1`);
}

/**
 * Every claim this account holds goes back to the pool, started or not: for a holder whose own loop
 * failed and runs again, which knows that none of them left (a sent one's outcome is written first).
 */
export async function releaseOwnClaims(db: Db, accountId: number): Promise<void> {
  await db.execute(sql`with p as (
                         update phone_numbers p set in_use = 0, claimed_by = null, claim_started = false
                         where p.status = 'active' and p.last_sent is null and p.in_use = 1
                           and p.claimed_by = ${accountId}
                         returning p.campaign_id
                       ), c as (${RETURN_RESERVED(sql`p`)})
                       select 1`);
}

/**
 * Settles the claims a previous holder of this account left (it died between claiming and
 * recording): a started one may have left, so it is logged 'unknown' (not paid) and its target
 * counts as sent, never to be messaged again; the others had not started and go back to the pool.
 * Returns how many were logged unknown.
 */
export async function settleAbandoned(db: Db, accountId: number, timeZone: string): Promise<number> {
  // a claimed number is active and not sent yet: phone_numbers_unblasted_idx finds it
  const mine = sql`p.status = 'active' and p.last_sent is null and p.in_use = 1 and p.claimed_by = ${accountId}`;
  await db.execute(sql`with p as (
                         update phone_numbers p set in_use = 0, claimed_by = null where ${mine} and not p.claim_started
                         returning p.campaign_id
                       ), c as (${RETURN_RESERVED(sql`p`)})
                       select 1`);
  // a campaign's unknown message keeps its share of the budget (it may have left)
  const settled = await rows<{ n: number }>(
    db,
    sql`with p as (
          update phone_numbers p set in_use = 0, claimed_by = null, claim_started = false,
                 last_sent = coalesce(p.last_sent, now())
          where ${mine} and p.claim_started
          returning p.id, p.number, p.campaign_id
        ), l as (
          insert into message_logs (user_id, whatsapp_id, phone_number_id, target, status, error, campaign_id)
          select w.user_id, w.id, p.id, p.number, 'unknown', 'The worker stopped while sending: delivery unknown.',
                 p.campaign_id
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
