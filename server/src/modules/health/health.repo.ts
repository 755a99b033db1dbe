import { type Db, rows } from '@wa/core/db/client';
import type { WorkersHealth } from '@wa/shared';
import { sql } from 'drizzle-orm';

/** What /api/health reads of the database: that it answers, and the live workers with their loops. */
export class HealthRepo {
  constructor(private readonly db: Db) {}

  async ping(): Promise<void> {
    await rows(this.db, sql`select 1`);
  }

  /**
   * The live workers and what they say of their loops, and the accounts 'sending' that nobody
   * holds. A lease that ran out less than `graceMs` ago is still given the benefit of the doubt:
   * the other workers' next sweep takes such an account over, and until then it is not lost.
   */
  async workers(graceMs: number): Promise<WorkersHealth> {
    const [r] = await rows<{
      live: number;
      accounts: number;
      sending: number;
      unheld: number;
      stalled: number;
      waiting_for: string[] | null;
    }>(
      this.db,
      sql`with live as (select stalled, waiting_for from whatsapp_workers where expires_at > now())
          select (select count(*)::int from live) as live,
                 (select count(*)::int from whatsapp_accounts where worker_id is not null and lease_until > now()) as accounts,
                 (select count(*)::int from whatsapp_accounts where status = 'sending') as sending,
                 (select count(*)::int from whatsapp_accounts
                   where status = 'sending'
                     and (worker_id is null or lease_until is null
                          or lease_until < now() - ${graceMs} * interval '1 millisecond')) as unheld,
                 (select coalesce(sum(stalled), 0)::int from live) as stalled,
                 (select array_agg(distinct waiting_for order by waiting_for) from live where waiting_for is not null) as waiting_for`,
    );
    return {
      live: Number(r?.live ?? 0),
      accounts: Number(r?.accounts ?? 0),
      sending: Number(r?.sending ?? 0),
      unheld: Number(r?.unheld ?? 0),
      stalled: Number(r?.stalled ?? 0),
      waiting_for: r?.waiting_for ?? [],
    };
  }
}
