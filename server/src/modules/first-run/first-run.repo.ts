import { type Db, rows } from '@wa/core/db/client';
import { coldDay } from '@wa/core/ledger/rollups';
import { sql } from 'drizzle-orm';

/** The installation's figures the first-run checklist ticks on. */
export interface FirstRunCounts {
  accounts: number;
  targets: number;
  templates: number;
  messages: number;
}

/** SQL for the first-run checklist; nothing else. */
export class FirstRunRepo {
  constructor(private readonly db: Db) {}

  /**
   * One round trip, none of it growing with the tables: blast messages are everybody's running
   * total and the open days' rows (what Total Blast reads), not counted from the message log;
   * targets are the default pool's row count kept by its triggers (what the Phone Numbers screen
   * lists), not a count of a table of millions.
   */
  async counts(): Promise<FirstRunCounts> {
    const [r] = await rows<Record<keyof FirstRunCounts, string | number>>(
      this.db,
      sql`select (select count(*) from whatsapp_accounts) as accounts,
                 (select row_count from table_stats where name = 'phone_numbers') as targets,
                 (select count(*) from message_templates where status = 'active' and campaign_id is null) as templates,
                 (select coalesce((select t.sent from ledger_totals t where t.user_id = 0), 0)
                   + coalesce(sum(d.sent), 0) from account_daily d where d.day > ${coldDay}) as messages`,
    );
    return {
      accounts: Number(r?.accounts ?? 0),
      targets: Number(r?.targets ?? 0),
      templates: Number(r?.templates ?? 0),
      messages: Number(r?.messages ?? 0),
    };
  }
}
