import type { WhatsappDto } from '@wa/shared';
import { sql } from 'drizzle-orm';

/** A whatsapp_accounts row as the API reads it (with the owner's name on lists). */
export interface AccountRow {
  id: number;
  clientid: string;
  user_id: number;
  previous_device_id: string | null;
  phonenumber: string | null;
  pushname: string | null;
  server: string | null;
  serialized: string | null;
  proxy_id: number | null;
  reconnect: number;
  interval: number | null;
  state: string | null;
  status: string;
  count_success: number;
  count_fail: number;
  income: number | string;
  suspended: boolean;
  suspended_count: number;
  created_at: Date | string;
  firstname?: string;
  lastname?: string;
  email?: string;
}

/** The columns of AccountRow, over `whatsapp_accounts w`. */
export const ACCOUNT_COLS = sql`w.id, w.clientid, w.user_id, w.previous_device_id, w.phonenumber, w.pushname, w.server,
  w.serialized, w.proxy_id, w.reconnect, w.interval, w.state, w.status, w.count_success, w.count_fail,
  w.income, w.suspended, w.suspended_count, w.created_at`;

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
    createdAt: new Date(r.created_at).toISOString(),
  };
  if (r.firstname !== undefined) {
    dto.User = { firstname: r.firstname ?? '', lastname: r.lastname ?? '', email: r.email ?? '' };
  }
  return dto;
}
