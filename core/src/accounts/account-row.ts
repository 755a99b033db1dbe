import { WA_ENGINES, type WhatsappDto } from '@wa/shared';
import { sql } from 'drizzle-orm';
import type { RawRow } from '../db/client';
import type { users, whatsappAccounts } from '../db/schema/index';
import { DAILY_CAP, SENT_TODAY } from './daily-cap';

/**
 * A whatsapp_accounts row as the API reads it (ACCOUNT_COLS, through `rows`): the columns as the
 * driver answers them (timestamps as text, `income` a bigint: text on node-postgres; `paused_until`
 * and `pause_reason` null unless the pause still lasts), today's cap and sends, and the owner's
 * name on lists.
 */
export type AccountRow = Pick<
  RawRow<typeof whatsappAccounts>,
  | 'id'
  | 'clientid'
  | 'user_id'
  | 'previous_device_id'
  | 'phonenumber'
  | 'pushname'
  | 'server'
  | 'serialized'
  | 'proxy_id'
  | 'reconnect'
  | 'interval'
  | 'state'
  | 'status'
  | 'count_success'
  | 'count_fail'
  | 'income'
  | 'suspended'
  | 'suspended_count'
  | 'created_at'
  | 'paused_until'
  | 'pause_reason'
  | 'waiting_reason'
  | 'blast_start_at'
  | 'engine'
> & {
  /** DAILY_CAP: null without a settings row */
  daily_cap: number | null;
  /** SENT_TODAY */
  sent_today: number;
} & Partial<Pick<RawRow<typeof users>, 'firstname' | 'lastname' | 'email'>>;

/** The columns of AccountRow, over `whatsapp_accounts w`. */
export const ACCOUNT_COLS = sql`w.id, w.clientid, w.user_id, w.previous_device_id, w.phonenumber, w.pushname, w.server,
  w.serialized, w.proxy_id, w.reconnect, w.interval, w.state, w.status, w.count_success, w.count_fail,
  w.income, w.suspended, w.suspended_count, w.created_at,
  case when w.paused_until > now() then w.paused_until end as paused_until,
  case when w.paused_until > now() then w.pause_reason end as pause_reason, w.waiting_reason,
  ${DAILY_CAP} as daily_cap, ${SENT_TODAY} as sent_today, w.blast_start_at, w.engine`;

export function toWhatsappDto(r: AccountRow): WhatsappDto {
  const dto: WhatsappDto = {
    id: r.id,
    clientid: r.clientid,
    deviceId: r.clientid,
    userId: r.user_id,
    user_id: r.user_id,
    previousDeviceId: r.previous_device_id,
    phonenumber: r.phonenumber,
    pushname: r.pushname,
    server: r.server,
    serialized: r.serialized,
    proxyId: r.proxy_id,
    reconnect: r.reconnect,
    interval: r.interval,
    state: r.state as WhatsappDto['state'],
    status: r.status === 'sending' ? 'sending' : 'idle',
    count_success: Number(r.count_success),
    count_fail: Number(r.count_fail),
    income: Number(r.income),
    suspended: r.suspended,
    suspended_count: Number(r.suspended_count),
    paused_until: r.paused_until ? new Date(r.paused_until).toISOString() : null,
    pause_reason: r.paused_until ? r.pause_reason : null,
    waiting_reason: r.waiting_reason ?? null,
    daily_cap: Number(r.daily_cap ?? 0),
    sent_today: Number(r.sent_today),
    scheduled_at: r.status === 'sending' && r.blast_start_at ? new Date(r.blast_start_at).toISOString() : null,
    engine: WA_ENGINES.find((e) => e === r.engine) ?? null,
    createdAt: new Date(r.created_at).toISOString(),
  };
  if (r.firstname !== undefined) {
    dto.User = { firstname: r.firstname ?? '', lastname: r.lastname ?? '', email: r.email ?? '' };
  }
  return dto;
}
