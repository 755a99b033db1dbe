import { AccountsRepo } from '@wa/core/accounts/accounts.repo';
import { type Db, preparedRows, rows } from '@wa/core/db/client';
import { dayOf } from '@wa/core/ledger/daily';
import { sql } from 'drizzle-orm';
import type { AckKind } from '../drivers/types';
import type { ReceiverRow } from './blast.repo';

/** The statuses a receipt moves a log from, and to. */
const MOVES: Partial<Record<AckKind, { from: string[]; to: string }>> = {
  delivered: { from: ['sent'], to: 'delivered' },
  read: { from: ['sent', 'delivered'], to: 'read' },
  failed: { from: ['sent'], to: 'failed' },
};

export interface ReceiptResult {
  /** a log row changed */
  changed: boolean;
  /** the target's row, when the receipt changed its counts (a failure after acceptance) */
  receiver: ReceiverRow | null;
}

const NOTHING: ReceiptResult = { changed: false, receiver: null };

/**
 * Settles a receipt of a blast message on its log row, keyed by the message's WhatsApp id and the
 * account: the row is the truth, so a receipt that arrives after a worker restart, or on another
 * worker, settles the same way, a receipt for an id no log holds changes nothing, and a receipt
 * that comes twice counts once (a status only moves forward). In one statement:
 * - delivered / read: the times are kept, and a fee held for delivery (payout_on = 'delivered')
 *   is paid to the member and the referrer, exactly once (the due goes to 0 as it is paid);
 * - failed (after WhatsApp accepted it): the message counts as failed on the account, its day and
 *   its target, and a held fee is settled unpaid;
 * - the account's day row of the ledger moves with it (the day the message was sent).
 * 'server' receipts change nothing: the log's sent_at is the acceptance.
 */
export async function recordReceipt(
  db: Db,
  accountId: number,
  messageId: string,
  ack: AckKind,
  timeZone: string,
): Promise<ReceiptResult> {
  const move = MOVES[ack];
  if (!move) return NOTHING;
  const failed = sql`(select count(*) from l where l.status = 'failed')::int`;
  const paid = sql`(select coalesce(sum(l.due), 0) from l where l.status <> 'failed')::int`;
  const [r] = await preparedRows<{
    changed: number;
    r_id: number | null;
    r_count_success: number | null;
    r_count_fail: number | null;
    r_last_sent: Date | string | null;
    r_in_use: number | null;
  }>(
    db,
    sql`with o as (
          select id, status, fee_due, referral_fee_due, created_at, phone_number_id from message_logs
          where wa_message_id = ${messageId}::text and whatsapp_id = ${accountId}::int
            and status in ${move.from}
          limit 1 for update
        ), l as (
          update message_logs m
          set status = ${move.to}::text,
              delivered_at = case when ${move.to}::text in ('delivered', 'read') then coalesce(m.delivered_at, now()) end,
              read_at = case when ${move.to}::text = 'read' then coalesce(m.read_at, now()) end,
              fee = m.fee + case when ${move.to}::text = 'failed' then 0 else o.fee_due end,
              referral_fee = m.referral_fee + case when ${move.to}::text = 'failed' then 0 else o.referral_fee_due end,
              fee_due = 0, referral_fee_due = 0,
              error = case when ${move.to}::text = 'failed' then 'failed: WhatsApp reported the message undeliverable.' else m.error end
          from o where m.id = o.id
          returning m.status, o.status as was, o.fee_due as due,
                    case when m.status = 'failed' then 0 else o.referral_fee_due end as referral_paid,
                    o.created_at, o.phone_number_id
        ), d as (
          update account_daily d
          set delivered = d.delivered + (l.status in ('delivered', 'read') and l.was = 'sent')::int,
              read = d.read + (l.status = 'read')::int,
              sent = d.sent - (l.status = 'failed')::int, failed = d.failed + (l.status = 'failed')::int,
              income = d.income + case when l.status = 'failed' then 0 else l.due end,
              referral_income = d.referral_income + l.referral_paid
          from l where d.whatsapp_id = ${accountId}::int and d.day = ${dayOf(sql`l.created_at`, timeZone)}
        ), a as (
          ${AccountsRepo.countReceiptSql(accountId, failed, paid)}
        ), p as (
          update phone_numbers p
          set count_success = greatest(0, p.count_success - 1), count_fail = p.count_fail + 1
          from l where p.id = l.phone_number_id and l.status = 'failed'
          returning p.id, p.count_success, p.count_fail, p.last_sent, p.in_use
        )
        select (select count(*) from l)::int as changed, p.id as r_id, p.count_success as r_count_success,
               p.count_fail as r_count_fail, p.last_sent as r_last_sent, p.in_use as r_in_use
        from (select 1) one left join p on true`,
  );
  if (!r?.changed) return NOTHING;
  const receiver =
    r.r_id === null
      ? null
      : {
          id: r.r_id,
          count_success: Number(r.r_count_success),
          count_fail: Number(r.r_count_fail),
          last_sent: r.r_last_sent ? new Date(r.r_last_sent).toISOString() : null,
          in_use: Number(r.r_in_use),
        };
  return { changed: true, receiver };
}

/** An account's figures as `count_synced` tells them: its counts and income, its delivered and read messages. */
export async function accountFigures(
  db: Db,
  accountId: number,
): Promise<{ count_success: number; count_fail: number; income: number; delivered: number; read: number } | null> {
  const [r] = await rows<{
    count_success: number;
    count_fail: number;
    income: string | number;
    delivered: string | number;
    read: string | number;
  }>(
    db,
    sql`select w.count_success, w.count_fail, w.income,
               coalesce((select sum(d.delivered) from account_daily d where d.whatsapp_id = w.id), 0) as delivered,
               coalesce((select sum(d.read) from account_daily d where d.whatsapp_id = w.id), 0) as read
        from whatsapp_accounts w where w.id = ${accountId}`,
  );
  return r
    ? {
        count_success: r.count_success,
        count_fail: r.count_fail,
        income: Number(r.income),
        delivered: Number(r.delivered),
        read: Number(r.read),
      }
    : null;
}

/**
 * settings' payout_on = 'delivered': fees still held for messages sent more than the undelivered
 * window ago are settled unpaid (the due goes to 0; nothing is paid). At most `limit` at a time.
 * Any worker may run it: it writes no day row, since nothing is paid. Returns how many.
 */
export async function settleUndelivered(db: Db, limit = 5000): Promise<number> {
  const r = await rows<{ n: number }>(
    db,
    sql`with s as (select undelivered_window_hours as h from settings where id = 1),
        x as (
          select m.id from message_logs m, s
          where (m.fee_due > 0 or m.referral_fee_due > 0) and m.created_at < now() - s.h * interval '1 hour'
          order by m.created_at limit ${limit} for update of m skip locked
        ), u as (
          update message_logs m set fee_due = 0, referral_fee_due = 0 from x where m.id = x.id returning m.id
        )
        select count(*)::int as n from u`,
  );
  return Number(r[0]?.n ?? 0);
}
