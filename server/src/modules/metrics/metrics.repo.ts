import { type Db, rows } from '@wa/core/db/client';
import { coldDay } from '@wa/core/ledger/rollups';
import { sql } from 'drizzle-orm';

/** What /metrics reads of the database at each scrape: a few grouped counts, never per-row data. */
export class MetricsRepo {
  constructor(private readonly db: Db) {}

  /** Saved accounts by their state and engine (null engine: whatsapp-web.js, or the simulator's). */
  sessions(): Promise<{ state: string; engine: string; n: number }[]> {
    return rows(
      this.db,
      sql`select coalesce(state, 'unknown') as state, coalesce(engine, 'default') as engine, count(*)::int as n
          from whatsapp_accounts group by 1, 2`,
    );
  }

  /** Blast messages by outcome: everybody's folded days, then the open days' rows (core/src/ledger/rollups.ts). */
  async messages(): Promise<Record<'sent' | 'delivered' | 'read' | 'failed' | 'optout', number>> {
    const [r] = await rows<Record<string, string | number | null>>(
      this.db,
      sql`select sum(sent) as sent, sum(delivered) as delivered, sum(read) as read, sum(failed) as failed,
                 sum(optout) as optout
          from (select sent, delivered, read, failed, optout from ledger_days where day <= ${coldDay}
                union all
                select sent, delivered, read, failed, optout from account_daily where day > ${coldDay}) x`,
    );
    return {
      sent: Number(r?.sent ?? 0),
      delivered: Number(r?.delivered ?? 0),
      read: Number(r?.read ?? 0),
      failed: Number(r?.failed ?? 0),
      optout: Number(r?.optout ?? 0),
    };
  }

  /**
   * Webhook deliveries still to be made (pending, any age) and given up on in the last 24 hours
   * (failed): both read through an index, so a scrape stays cheap with millions of deliveries kept.
   */
  async webhookDeliveries(): Promise<{ pending: number; failed: number }> {
    const [r] = await rows<{ pending: number; failed: number }>(
      this.db,
      sql`select (select count(*)::int from webhook_deliveries where status = 'pending') as pending,
                 (select count(*)::int from webhook_deliveries
                  where created_at > now() - interval '24 hours' and status = 'failed') as failed`,
    );
    return { pending: Number(r?.pending ?? 0), failed: Number(r?.failed ?? 0) };
  }

  /** Live workers (heartbeat not run out) and the accounts they hold under a live lease. */
  async workers(): Promise<{ live: number; held: number }> {
    const [r] = await rows<{ live: number; held: number }>(
      this.db,
      sql`select (select count(*)::int from whatsapp_workers where expires_at > now()) as live,
                 (select count(*)::int from whatsapp_accounts where worker_id is not null and lease_until > now()) as held`,
    );
    return { live: Number(r?.live ?? 0), held: Number(r?.held ?? 0) };
  }
}
