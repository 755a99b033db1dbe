import { type Db, rows } from '@wa/core/db/client';
import { sql } from 'drizzle-orm';

/** What /api/health reads of the database: that it answers, and the live workers with their accounts. */
export class HealthRepo {
  constructor(private readonly db: Db) {}

  async ping(): Promise<void> {
    await rows(this.db, sql`select 1`);
  }

  /** Workers whose heartbeat has not run out, and the accounts they hold under a live lease. */
  async workers(): Promise<{ live: number; accounts: number }> {
    const [r] = await rows<{ live: number; accounts: number }>(
      this.db,
      sql`select (select count(*)::int from whatsapp_workers where expires_at > now()) as live,
                 (select count(*)::int from whatsapp_accounts where worker_id is not null and lease_until > now()) as accounts`,
    );
    return { live: Number(r?.live ?? 0), accounts: Number(r?.accounts ?? 0) };
  }
}
