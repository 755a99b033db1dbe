import { ALL_USERS } from '@wa/shared';
import { sql } from 'drizzle-orm';
import { type Db, rows } from '../../db/client';
import type { CounterScope } from '../../http/counter-scope';

/** SQL for bonuses; nothing else. */
export class BonusRepo {
  constructor(private readonly db: Db) {}

  /** Every bonus given, in whole rupiah. */
  async total(scope: CounterScope): Promise<number> {
    const owner = scope === ALL_USERS ? sql`true` : sql`b.user_id = ${scope.userId}`;
    const [r] = await rows<{ total: string | number }>(
      this.db,
      sql`select coalesce(sum(b.nominal), 0)::bigint as total from bonuses b where ${owner}`,
    );
    return Number(r?.total ?? 0);
  }
}
