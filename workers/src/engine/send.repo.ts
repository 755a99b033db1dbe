import { type Db, type RawRow, rows } from '@wa/core/db/client';
import type { whatsappAccounts, whatsappSends } from '@wa/core/db/schema/index';
import type { SendMessageJob } from '@wa/core/jobs/names';
import { sql } from 'drizzle-orm';

/** The next step of an account's oldest unfinished one-off send. */
export interface SendStep {
  id: string;
  message: string;
  /** the receiver at `position`, or null when the send is through */
  next: string | null;
  position: number;
  total: number;
  /** the account's state and suspension, read with the step */
  state: string | null;
  suspended: boolean;
  /**
   * seconds between two messages: the member's minimum, else the settings', with the account's own
   * interval as a floor under it (as a blast's, see blastPlan): a member cannot pace below the minimum
   */
  interval: number;
}

type Send = RawRow<typeof whatsappSends>;
type Account = RawRow<typeof whatsappAccounts>;

export type SendCounts = Pick<Send, 'count_success' | 'count_fail'>;

/** Records the send a job names, unless it is there already (the API writes it first). */
export async function ensureSend(db: Db, job: SendMessageJob): Promise<{ clientid: string; status: string } | null> {
  await db.execute(sql`
    insert into whatsapp_sends (id, whatsapp_id, requested_by, message, receivers)
    select ${job.sendId}, w.id, ${job.requestedBy}, ${job.message}, ${sql.param(job.receivers)}::text[]
    from whatsapp_accounts w where w.id = ${job.accountId}
    on conflict (id) do nothing`);
  const [r] = await rows<Pick<Account, 'clientid'> & Pick<Send, 'status'>>(
    db,
    sql`select w.clientid, s.status from whatsapp_sends s join whatsapp_accounts w on w.id = s.whatsapp_id
        where s.id = ${job.sendId}`,
  );
  return r ?? null;
}

export async function nextSend(db: Db, accountId: number): Promise<SendStep | null> {
  const [r] = await rows<
    Pick<Send, 'id' | 'message' | 'position'> &
      Pick<Account, 'state' | 'suspended'> & {
        /** the receiver at `position` (null when through), and how many there are */
        next: string | null;
        total: number;
        min_interval: number;
        account_interval: Account['interval'];
      }
  >(
    db,
    sql`select s.id, s.message, s.receivers[s.position + 1] as next, s.position,
               cardinality(s.receivers) as total, w.state, w.suspended,
               coalesce(u.blast_interval_min, st.interval_min, 0) as min_interval,
               w.interval as account_interval
        from whatsapp_sends s
        join whatsapp_accounts w on w.id = s.whatsapp_id
        join users u on u.id = w.user_id
        left join settings st on st.id = 1
        where s.whatsapp_id = ${accountId} and s.status = 'sending'
        order by s.created_at, s.id
        limit 1`,
  );
  if (!r) return null;
  return {
    id: r.id,
    message: r.message,
    next: r.next,
    position: Number(r.position),
    total: Number(r.total),
    state: r.state,
    suspended: r.suspended,
    interval: Math.max(0, Number(r.min_interval ?? 0), Number(r.account_interval ?? 0)),
  };
}

/**
 * Moves the send past the receiver at `position` before the message leaves: if the worker dies
 * while sending, the next holder goes on after it, so nobody gets the message twice (the one in
 * flight counts as neither sent nor failed: position minus the two counts).
 */
export async function claimReceiver(db: Db, sendId: string, position: number): Promise<boolean> {
  const r = await rows<Pick<Send, 'id'>>(
    db,
    sql`update whatsapp_sends set position = position + 1, updated_at = now()
        where id = ${sendId} and position = ${position} and status = 'sending' returning id`,
  );
  return r.length > 0;
}

export async function recordReceiver(db: Db, sendId: string, success: boolean): Promise<void> {
  await db.execute(sql`
    update whatsapp_sends
    set count_success = count_success + ${success ? 1 : 0}, count_fail = count_fail + ${success ? 0 : 1}, updated_at = now()
    where id = ${sendId}`);
}

/** Ends a send (only while it is still sending); its counts when this call ended it. */
export async function finishSend(db: Db, sendId: string, status: 'done' | 'stopped'): Promise<SendCounts | null> {
  const [r] = await rows<SendCounts>(
    db,
    sql`update whatsapp_sends set status = ${status}, updated_at = now()
        where id = ${sendId} and status = 'sending' returning count_success, count_fail`,
  );
  return r ? { count_success: Number(r.count_success), count_fail: Number(r.count_fail) } : null;
}

/** An account that left connected drops its unfinished sends, as a blast ends then too. */
export async function stopSends(db: Db, accountId: number): Promise<void> {
  await db.execute(sql`
    update whatsapp_sends set status = 'stopped', updated_at = now()
    where whatsapp_id = ${accountId} and status = 'sending'`);
}

export async function hasUnfinishedSend(db: Db, accountId: number): Promise<boolean> {
  const r = await rows<{ id: string }>(
    db,
    sql`select id from whatsapp_sends where whatsapp_id = ${accountId} and status = 'sending' limit 1`,
  );
  return r.length > 0;
}
