import { ALL_USERS } from '@wa/shared';
import { sql } from 'drizzle-orm';
import { type Db, rows } from '../../db/client';
import type { CounterScope } from '../../http/counter-scope';
import { incomeSql } from '../messagelog/messagelog.repo';

/** Withdrawals that hold money: a rejected one gives its nominal back. */
const HOLDING = sql`('requested', 'accepted')`;

/** SQL for withdrawals; nothing else. */
export class WithdrawRepo {
  constructor(private readonly db: Db) {}

  /**
   * The balance of DESIGN.md "Money": income (own fees + referral fees) + bonuses − withdrawals
   * requested or accepted, in whole rupiah, from the rows themselves (no stored running total).
   */
  async balance(scope: CounterScope): Promise<number> {
    const bonusOwner = scope === ALL_USERS ? sql`true` : sql`b.user_id = ${scope.userId}`;
    const withdrawOwner = scope === ALL_USERS ? sql`true` : sql`w.user_id = ${scope.userId}`;
    const [r] = await rows<{ balance: string | number }>(
      this.db,
      sql`select (${incomeSql(scope)}
          + (select coalesce(sum(b.nominal), 0) from bonuses b where ${bonusOwner})
          - (select coalesce(sum(w.nominal), 0) from withdrawals w where ${withdrawOwner} and w.status in ${HOLDING})
        )::bigint as balance`,
    );
    return Number(r?.balance ?? 0);
  }
}
