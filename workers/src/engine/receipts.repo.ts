import { type Db, rows } from '@wa/core/db/client';
import { sql } from 'drizzle-orm';
import type { AckKind } from '../drivers/types';

/**
 * Records a receipt of a blast message on its log row, keyed by the message's WhatsApp id: the row
 * is the truth, so a receipt that arrives after a worker restart, or on another worker, settles
 * the same way, and a receipt for an id no log holds changes nothing. Each time is kept once (the
 * first receipt wins); a read message was delivered too. True when a row changed.
 */
export async function recordReceipt(db: Db, accountId: number, messageId: string, ack: AckKind): Promise<boolean> {
  const set =
    ack === 'read'
      ? sql`read_at = coalesce(read_at, now()), delivered_at = coalesce(delivered_at, now())`
      : ack === 'delivered'
        ? sql`delivered_at = coalesce(delivered_at, now())`
        : ack === 'server'
          ? sql`sent_at = coalesce(sent_at, now())`
          : null;
  // 'failed' changes the outcome of a message: settled with the payout rules (issue 11), not here
  if (!set) return false;
  const r = await rows<{ id: number }>(
    db,
    sql`update message_logs set ${set}
        where wa_message_id = ${messageId} and whatsapp_id = ${accountId} and status = 'success'
        returning id`,
  );
  return r.length > 0;
}
