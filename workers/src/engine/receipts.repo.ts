import { AccountsRepo } from '@wa/core/accounts/accounts.repo';
import { type Db, type Int8, type RawRow, rows } from '@wa/core/db/client';
import type { whatsappAccounts } from '@wa/core/db/schema/index';
import { dayOf, hourOf } from '@wa/core/ledger/daily';
import { sql } from 'drizzle-orm';
import type { AckKind } from '../drivers/types';
import type { ReceiverRow } from './blast.repo';

/** A receipt for one message. */
export interface Receipt {
  messageId: string;
  ack: AckKind;
}

/** The receipts of a batch, one per message: read outranks delivered, either outranks failed; 'server' changes nothing. */
export function collapse(receipts: Receipt[]): Receipt[] {
  const rank: Partial<Record<AckKind, number>> = { failed: 1, delivered: 2, read: 3 };
  const best = new Map<string, AckKind>();
  for (const r of receipts) {
    const was = best.get(r.messageId);
    if (rank[r.ack] === undefined) continue;
    if (was === undefined || (rank[r.ack] ?? 0) > (rank[was] ?? 0)) best.set(r.messageId, r.ack);
  }
  return [...best].map(([messageId, ack]) => ({ messageId, ack }));
}

export interface ReceiptsResult {
  /** the message ids whose log row changed */
  changed: Set<string>;
  /** the targets whose counts changed (a failure after acceptance) */
  receivers: ReceiverRow[];
  /** each changed message: its new status, the one before, its target number and the target's row id (the webhooks) */
  settled: Array<{ messageId: string; status: string; was: string; target: string; targetId: number | null }>;
}

/**
 * Settles receipts of one account's blast messages on their log rows, keyed by the messages'
 * WhatsApp ids and the account: the row is the truth, so a receipt that arrives after a worker
 * restart, or on another worker, settles the same way, a receipt for an id no log holds changes
 * nothing, and a receipt that comes twice counts once (a status only moves forward: sent →
 * delivered → read, or sent → failed). One statement for the whole batch:
 * - delivered / read: the times are kept, and a fee held for delivery (payout_on = 'delivered')
 *   is paid to the member and the referrer, exactly once (the due goes to 0 as it is paid);
 * - failed (after WhatsApp accepted it): the message counts as failed on the account, its day and
 *   its target, and a held fee is settled unpaid;
 * - the account's day rows of the ledger move with them (the day each message was sent).
 * A campaign's figures are counted from the log by the campaign supervisor, not here: a campaign's
 * row is shared by every account sending for it, and the send path writes only its account's rows.
 * 'server' receipts change nothing: the log's sent_at is the acceptance.
 */
export async function recordReceipts(
  db: Db,
  accountId: number,
  receipts: Receipt[],
  timeZone: string,
): Promise<ReceiptsResult> {
  const batch = collapse(receipts);
  if (!batch.length) return { changed: new Set(), receivers: [], settled: [] };
  const input = JSON.stringify(batch.map((r) => ({ mid: r.messageId, ack: r.ack })));
  const failed = sql`(select count(*) from l where l.status = 'failed')::int`;
  const paid = sql`(select coalesce(sum(l.due), 0) from l where l.status <> 'failed')::int`;
  // Each receipt finds its log by the message id's index alone (\`whatsapp_id + 0\` keeps the planner
  // off the account's index, whose scan grows with the account's history), and the statement is
  // planned per batch, not prepared: a plan kept from when the log was small (a new installation's
  // first blast) read the account's whole log, or all of it, for every batch once the log had grown
  // (bench/README.md). One plan per batch of receipts costs little.
  const [r] = await rows<{
    changed: string[] | null;
    receivers: ReceiverRow[] | null;
    settled: Array<{ mid: string; status: string; was: string; target: string; target_id: number | null }> | null;
  }>(
    db,
    sql`with i as (
          select * from jsonb_to_recordset(${input}::jsonb) as i(mid text, ack text)
        ), o as (
          select m.id, m.status, m.fee_due, m.referral_fee_due, m.created_at, m.phone_number_id, i.ack as next
          from i cross join lateral (
            select m.id, m.status, m.fee_due, m.referral_fee_due, m.created_at, m.phone_number_id
            from message_logs m
            where m.wa_message_id = i.mid and m.whatsapp_id + 0 = ${accountId}::int
              and (m.status = 'sent' or (i.ack = 'read' and m.status = 'delivered'))
            limit 1 for update
          ) m
        ), l as (
          update message_logs m
          set status = o.next,
              delivered_at = case when o.next in ('delivered', 'read') then coalesce(m.delivered_at, now()) end,
              read_at = case when o.next = 'read' then coalesce(m.read_at, now()) end,
              fee = m.fee + case when o.next = 'failed' then 0 else o.fee_due end,
              referral_fee = m.referral_fee + case when o.next = 'failed' then 0 else o.referral_fee_due end,
              fee_due = 0, referral_fee_due = 0,
              error = case when o.next = 'failed' then 'failed: WhatsApp reported the message undeliverable.' else m.error end
          from o where m.id = o.id
          returning m.wa_message_id, m.status, o.status as was, m.target,
                    case when m.status = 'failed' then 0 else o.fee_due end as due,
                    case when m.status = 'failed' then 0 else o.referral_fee_due end as referral_paid,
                    ${dayOf(sql`o.created_at`, timeZone)} as day, ${hourOf(sql`o.created_at`, timeZone)} as hour,
                    o.phone_number_id
        ), x as (
          select l.day,
                 count(*) filter (where l.status in ('delivered', 'read') and l.was = 'sent')::int as delivered,
                 count(*) filter (where l.status = 'read')::int as read,
                 count(*) filter (where l.status = 'failed')::int as failed,
                 coalesce(sum(l.due), 0)::int as income, coalesce(sum(l.referral_paid), 0)::int as referral_income
          from l group by l.day
        ), d as (
          update account_daily d
          set delivered = d.delivered + x.delivered, read = d.read + x.read,
              sent = d.sent - x.failed, failed = d.failed + x.failed,
              income = d.income + x.income, referral_income = d.referral_income + x.referral_income
          from x where d.whatsapp_id = ${accountId}::int and d.day = x.day
        ), xh as (
          select l.hour,
                 count(*) filter (where l.status in ('delivered', 'read') and l.was = 'sent')::int as delivered,
                 count(*) filter (where l.status = 'failed')::int as failed
          from l group by l.hour
        ), h as (
          update account_hourly h
          set delivered = h.delivered + xh.delivered, sent = h.sent - xh.failed, failed = h.failed + xh.failed
          from xh where h.whatsapp_id = ${accountId}::int and h.hour = xh.hour
        ), a as (
          ${AccountsRepo.countReceiptSql(accountId, failed, paid)}
        ), p as (
          update phone_numbers p
          set count_success = greatest(0, p.count_success - 1), count_fail = p.count_fail + 1
          from l where p.id = l.phone_number_id and l.status = 'failed'
          returning p.id, p.count_success, p.count_fail, p.last_sent, p.in_use
        )
        select (select array_agg(l.wa_message_id) from l) as changed,
               (select json_agg(json_build_object('mid', l.wa_message_id, 'status', l.status, 'was', l.was,
                  'target', l.target, 'target_id', l.phone_number_id)) from l) as settled,
               (select json_agg(json_build_object('id', p.id, 'count_success', p.count_success,
                  'count_fail', p.count_fail, 'last_sent', p.last_sent, 'in_use', p.in_use)) from p) as receivers`,
  );
  return {
    changed: new Set(r?.changed ?? []),
    settled: (r?.settled ?? []).map((s) => ({
      messageId: s.mid,
      status: s.status,
      was: s.was,
      target: s.target,
      targetId: s.target_id ?? null,
    })),
    receivers: (r?.receivers ?? []).map((p) => ({
      ...p,
      last_sent: p.last_sent ? new Date(p.last_sent).toISOString() : null,
    })),
  };
}

/** `recordReceipts` for one receipt: whether its log changed, and the target row it changed. */
export async function recordReceipt(
  db: Db,
  accountId: number,
  messageId: string,
  ack: AckKind,
  timeZone: string,
): Promise<{ changed: boolean; receiver: ReceiverRow | null }> {
  const r = await recordReceipts(db, accountId, [{ messageId, ack }], timeZone);
  return { changed: r.changed.has(messageId), receiver: r.receivers[0] ?? null };
}

/** An account's figures as `count_synced` tells them: its counts and income, its delivered and read messages. */
export async function accountFigures(
  db: Db,
  accountId: number,
): Promise<{ count_success: number; count_fail: number; income: number; delivered: number; read: number } | null> {
  const [r] = await rows<
    Pick<RawRow<typeof whatsappAccounts>, 'count_success' | 'count_fail' | 'income'> & { delivered: Int8; read: Int8 }
  >(
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
