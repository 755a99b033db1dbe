import { type Db, rows } from '@wa/core/db/client';
import type { MonitorRemote, MonitorSocket } from '@wa/shared';
import { sql } from 'drizzle-orm';

type AccountRow = NonNullable<MonitorRemote['account']>;

const iso = (v: unknown): string | null => (v === null || v === undefined ? null : new Date(v as string).toISOString());

/** SQL for the dev monitor; nothing else. */
export class MonitorRepo {
  constructor(private readonly db: Db) {}

  /** The account row of a device, with whether its holder's lease still runs. */
  async accountByClientId(clientid: string): Promise<AccountRow | null> {
    const [r] = await rows<Record<string, unknown>>(
      this.db,
      sql`select id, clientid, user_id, phonenumber, pushname, state, status, worker_id, lease_until,
                 coalesce(lease_until > now(), false) as lease_active, reconnect, count_success, count_fail,
                 income, suspended, suspended_count, updated_at
          from whatsapp_accounts where clientid = ${clientid}`,
    );
    if (!r) return null;
    return {
      id: Number(r.id),
      clientid: String(r.clientid),
      user_id: Number(r.user_id),
      phonenumber: (r.phonenumber as string | null) ?? null,
      pushname: (r.pushname as string | null) ?? null,
      state: (r.state as string | null) ?? null,
      status: String(r.status),
      worker_id: (r.worker_id as string | null) ?? null,
      lease_until: iso(r.lease_until),
      lease_active: Boolean(r.lease_active),
      reconnect: Number(r.reconnect),
      count_success: Number(r.count_success),
      count_fail: Number(r.count_fail),
      income: Number(r.income),
      suspended: Boolean(r.suspended),
      suspended_count: Number(r.suspended_count),
      updatedAt: iso(r.updated_at) ?? '',
    };
  }

  async user(id: number): Promise<MonitorSocket['user'] | null> {
    const [r] = await rows<MonitorSocket['user']>(
      this.db,
      sql`select id, email, firstname, lastname, role from users where id = ${id}`,
    );
    return r ?? null;
  }
}
