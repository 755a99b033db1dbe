import { type Db, type RawRow, rows } from '@wa/core/db/client';
import type { users, whatsappAccounts } from '@wa/core/db/schema/index';
import type { MonitorRemote, MonitorSocket } from '@wa/shared';
import { sql } from 'drizzle-orm';

type AccountRow = NonNullable<MonitorRemote['account']>;

/** What accountByClientId selects: the account's columns and whether its lease runs. */
type MonitorRow = Pick<
  RawRow<typeof whatsappAccounts>,
  | 'id'
  | 'clientid'
  | 'user_id'
  | 'phonenumber'
  | 'pushname'
  | 'state'
  | 'status'
  | 'worker_id'
  | 'lease_until'
  | 'reconnect'
  | 'count_success'
  | 'count_fail'
  | 'income'
  | 'suspended'
  | 'suspended_count'
  | 'updated_at'
> & { lease_active: boolean };

const iso = (v: string | null): string | null => (v === null ? null : new Date(v).toISOString());

/** SQL for the dev monitor; nothing else. */
export class MonitorRepo {
  constructor(private readonly db: Db) {}

  /** The account row of a device, with whether its holder's lease still runs. */
  async accountByClientId(clientid: string): Promise<AccountRow | null> {
    const [r] = await rows<MonitorRow>(
      this.db,
      sql`select id, clientid, user_id, phonenumber, pushname, state, status, worker_id, lease_until,
                 coalesce(lease_until > now(), false) as lease_active, reconnect, count_success, count_fail,
                 income, suspended, suspended_count, updated_at
          from whatsapp_accounts where clientid = ${clientid}`,
    );
    if (!r) return null;
    return {
      id: Number(r.id),
      clientid: r.clientid,
      user_id: Number(r.user_id),
      phonenumber: r.phonenumber ?? null,
      pushname: r.pushname ?? null,
      state: r.state ?? null,
      status: r.status,
      worker_id: r.worker_id ?? null,
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
    // the user as the monitor answers it (a column of another type would not compile as one)
    const [r] = await rows<Pick<RawRow<typeof users>, keyof MonitorSocket['user']>>(
      this.db,
      sql`select id, email, firstname, lastname, role from users where id = ${id}`,
    );
    return r ?? null;
  }
}
