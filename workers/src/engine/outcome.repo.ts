import { AccountsRepo } from '@wa/core/accounts/accounts.repo';
import { type Db, type Prefixed, preparedRows, type RawRow, rows } from '@wa/core/db/client';
import type { phoneNumbers, whatsappAccounts } from '@wa/core/db/schema/index';
import { dayOf, HOURLY_KEEP_DAYS, hourOf, today } from '@wa/core/ledger/daily';
import type { PayoutOn } from '@wa/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AccountCounts, ClaimedTarget, ReceiverRow } from './blast.repo';

/** What the blast knows of a send when it records its outcome. */
export interface OutcomeInput {
  target: ClaimedTarget;
  userId: number;
  accountId: number;
  templateId: number;
  /** the campaign the target belongs to and the variant sent (null, null: the default pool) */
  campaignId: number | null;
  variantId: number | null;
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
  /** the account's next claimed target: marked started in the same statement */
  next: number | null;
}

/** A recorded outcome: the target's row and the account's figures after it. */
export interface Outcome {
  receiver: ReceiverRow;
  account: AccountCounts;
  /** the next claim was marked started */
  nextStarted: boolean;
}

/**
 * A row of `outcomesSql` (a prepared statement: `r_last_sent` is a Date on PostgreSQL, text on
 * PGlite): the outcome's index, its target's row under `r_`, its account's figures (`income` a
 * bigint) and whether the next claim was marked started.
 */
export type OutcomeRow = { k: number } & Prefixed<
  'r_',
  Pick<RawRow<typeof phoneNumbers, Date | string>, 'id' | 'count_success' | 'count_fail' | 'last_sent' | 'in_use'>
> &
  Pick<RawRow<typeof whatsappAccounts>, 'count_success' | 'count_fail' | 'income' | 'fail_streak' | 'sent_today'> & {
    next_started: boolean;
  };

/** One outcome as the statement reads it (jsonb_to_recordset). */
function outcomeRecord(o: OutcomeInput, k: number) {
  const s = o.success ? 1 : 0;
  const fee = o.success ? o.fee : 0;
  const referralFee = o.success && o.referrerId !== null ? o.referralFee : 0;
  const now = o.payoutOn === 'accepted';
  return {
    k,
    acc: o.accountId,
    usr: o.userId,
    target: o.target.id,
    num: o.target.number,
    tpl: o.templateId,
    camp: o.campaignId,
    var: o.variantId,
    s,
    fee: now ? fee : 0,
    fee_due: now ? 0 : fee,
    ref: referralFee > 0 ? o.referrerId : null,
    ref_fee: now ? referralFee : 0,
    ref_due: now ? 0 : referralFee,
    referrer: o.referrerId,
    error: o.error,
    wa: o.waMessageId,
    body: o.text,
    next: o.next,
  };
}

/**
 * The statement that records sends' outcomes, one per account (atomic without a transaction, one
 * round trip for the whole batch, planned once per connection): each log row is written (sent,
 * with the member's fee and the referrer's share paid now or held until delivery by `payoutOn`; or
 * failed); each target is marked sent; each account's counters, its day row of the ledger and its
 * template use move, and its next claim is marked started. Every row written belongs to one
 * account or its target, so accounts never wait on each other. An outcome whose claim was already
 * settled elsewhere (a worker that took the account over after this one stalled) writes nothing
 * and returns no row: nothing is counted twice. At most one outcome per account: the day and
 * template rows are upserted once per statement.
 */
export function outcomesSql(list: OutcomeInput[], timeZone: string): SQL {
  const input = JSON.stringify(list.map(outcomeRecord));
  return sql`with i as (
          select * from jsonb_to_recordset(${input}::jsonb) as i(k int, acc int, usr int, target int, num text,
            tpl int, camp int, var int, s int, fee int, fee_due int, ref int, ref_fee int, ref_due int,
            referrer int, error text, wa text, body text, next int)
        ), p as (
          update phone_numbers p
          set in_use = 0, claimed_by = null, claim_started = false, last_sent = now(),
              count_success = p.count_success + i.s, count_fail = p.count_fail + (1 - i.s)
          from i where p.id = i.target and p.in_use = 1 and p.claimed_by = i.acc
          returning i.k, p.id, p.count_success, p.count_fail, p.last_sent, p.in_use
        ), x as (
          select i.* from i join p on p.k = i.k
        ), l as (
          insert into message_logs (user_id, whatsapp_id, phone_number_id, target, status, fee, fee_due, template_id,
            referrer_id, referral_fee, referral_fee_due, error, wa_message_id, text, sent_at, campaign_id, variant_id)
          select x.usr, x.acc, x.target, x.num, case when x.s = 1 then 'sent' else 'failed' end,
                 x.fee, x.fee_due, x.tpl, x.ref, x.ref_fee, x.ref_due, x.error, x.wa, x.body,
                 case when x.s = 1 then now() end, x.camp, x.var
          from x
        ), a as (
          ${AccountsRepo.countSendsSql(sql`select acc, s, fee from x`, timeZone)}
        ), d as (
          insert into account_daily as d (whatsapp_id, day, user_id, referrer_id, sent, failed, income, referral_income)
          select x.acc, ${today(timeZone)}, x.usr, x.referrer, x.s, 1 - x.s, x.fee, x.ref_fee from x
          on conflict (whatsapp_id, day) do update
          set sent = d.sent + excluded.sent, failed = d.failed + excluded.failed,
              income = d.income + excluded.income, referral_income = d.referral_income + excluded.referral_income,
              referrer_id = coalesce(excluded.referrer_id, d.referrer_id)
        ), h as (
          insert into account_hourly as h (whatsapp_id, hour, user_id, sent, failed)
          select x.acc, ${hourOf(sql`now()`, timeZone)}, x.usr, x.s, 1 - x.s from x
          on conflict (whatsapp_id, hour) do update set sent = h.sent + excluded.sent, failed = h.failed + excluded.failed
        ), n as (
          update phone_numbers q set claim_started = true
          from x where q.id = x.next and q.in_use = 1 and q.claimed_by = x.acc
          returning q.id
        ), u as (
          insert into template_uses as u (template_id, whatsapp_id, uses)
          select x.tpl, x.acc, 1 from x
          on conflict (template_id, whatsapp_id) do update set uses = u.uses + 1
        )
        select x.k, p.id as r_id, p.count_success as r_count_success, p.count_fail as r_count_fail,
               p.last_sent as r_last_sent, p.in_use as r_in_use,
               a.count_success, a.count_fail, a.income, a.fail_streak, a.sent_today,
               coalesce(x.next in (select id from n), false) as next_started
        from x join p on p.k = x.k join a on a.id = x.acc`;
}

/** The outcome as the statement returned it; null when the claim was already settled elsewhere. */
export function toOutcome(r: OutcomeRow | undefined): Outcome | null {
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
    nextStarted: r.next_started === true,
  };
}

/**
 * Records sends' outcomes, at most one per account, in one statement (see `outcomesSql`): the
 * outcome of each, null where its claim was settled elsewhere. The blast records through an
 * OutcomeBatcher, which gathers the outcomes of the worker's accounts into one call.
 */
export async function recordOutcomes(db: Db, list: OutcomeInput[], timeZone: string): Promise<Array<Outcome | null>> {
  if (!list.length) return [];
  const found = await preparedRows<OutcomeRow>(db, outcomesSql(list, timeZone));
  const byK = new Map(found.map((r) => [Number(r.k), r]));
  return list.map((_, k) => toOutcome(byK.get(k)));
}

/** One send's outcome (see `recordOutcomes`). */
export async function recordOutcome(db: Db, o: OutcomeInput): Promise<Outcome | null> {
  const [outcome] = await recordOutcomes(db, [o], o.timeZone);
  return outcome ?? null;
}

/**
 * A send whose outcome found its claim settled by the account's next holder (this worker was frozen
 * or cut off past its lease; the next holder could not know whether the message left, so it logged
 * 'unknown', unpaid): the log row becomes what really happened, with its fee, and the account, its
 * day row (the day the unknown was counted on), its target and its template move as the outcome
 * would have moved them. True when such a row was revised; false when there was none (the claim
 * was settled otherwise, or revised already).
 */
export async function reviseUnknown(db: Db, o: OutcomeInput): Promise<boolean> {
  const input = JSON.stringify([outcomeRecord(o, 0)]);
  const found = await rows<{ n: number }>(
    db,
    sql`with i as (
          select * from jsonb_to_recordset(${input}::jsonb) as i(k int, acc int, usr int, target int, num text,
            tpl int, camp int, var int, s int, fee int, fee_due int, ref int, ref_fee int, ref_due int,
            referrer int, error text, wa text, body text, next int)
        ), l as (
          update message_logs m
          set status = case when i.s = 1 then 'sent' else 'failed' end, fee = i.fee, fee_due = i.fee_due,
              template_id = i.tpl, referrer_id = i.ref, referral_fee = i.ref_fee, referral_fee_due = i.ref_due,
              error = i.error, wa_message_id = i.wa, text = i.body, sent_at = case when i.s = 1 then now() end,
              variant_id = i.var
          from i
          where m.id = (select id from message_logs
                        where whatsapp_id = i.acc and phone_number_id = i.target and status = 'unknown'
                          and wa_message_id is null
                        order by id desc limit 1)
          returning m.created_at, i.acc, i.usr, i.target, i.tpl, i.s, i.fee, i.ref_fee, i.referrer
        ), a as (
          ${AccountsRepo.countSendsSql(sql`select acc, s, fee from l`, o.timeZone)}
        ), d as (
          update account_daily d
          set unknown = d.unknown - 1, sent = d.sent + l.s, failed = d.failed + (1 - l.s),
              income = d.income + l.fee, referral_income = d.referral_income + l.ref_fee,
              referrer_id = coalesce(l.referrer, d.referrer_id)
          from l where d.whatsapp_id = l.acc and d.day = ${dayOf(sql`l.created_at`, o.timeZone)}
        ), h as (
          insert into account_hourly as h (whatsapp_id, hour, user_id, sent, failed)
          select l.acc, ${hourOf(sql`l.created_at`, o.timeZone)}, l.usr, l.s, 1 - l.s from l
          where l.created_at >= now() - make_interval(days => ${HOURLY_KEEP_DAYS}::int)
          on conflict (whatsapp_id, hour) do update set sent = h.sent + excluded.sent, failed = h.failed + excluded.failed
        ), p as (
          update phone_numbers p set count_success = p.count_success + l.s, count_fail = p.count_fail + (1 - l.s)
          from l where p.id = l.target
        ), u as (
          insert into template_uses as u (template_id, whatsapp_id, uses)
          select l.tpl, l.acc, 1 from l
          on conflict (template_id, whatsapp_id) do update set uses = u.uses + 1
        )
        select count(*)::int as n from l`,
  );
  return Number(found[0]?.n ?? 0) > 0;
}
