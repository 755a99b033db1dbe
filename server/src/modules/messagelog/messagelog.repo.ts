import type { CounterScope } from '@wa/core/counter-scope';
import { type Db, rows } from '@wa/core/db/client';
import { ALL_USERS, type SuccessFailCount } from '@wa/shared';
import { type SQL, sql } from 'drizzle-orm';

/** A half-open time window `[start, end)` as SQL timestamptz expressions. */
export interface SqlRange {
  start: SQL;
  end: SQL;
}

/**
 * Today in `timeZone`, computed by the database so every API process agrees whatever its own TZ:
 * local midnight to the next local midnight (23 or 25 hours apart on a DST change).
 */
export function todayIn(timeZone: string): SqlRange {
  const localDay = sql`date_trunc('day', now() at time zone ${timeZone}::text)`;
  return {
    start: sql`(${localDay} at time zone ${timeZone}::text)`,
    end: sql`((${localDay} + interval '1 day') at time zone ${timeZone}::text)`,
  };
}

const within = (range: SqlRange | undefined): SQL =>
  range ? sql` and m.created_at >= ${range.start} and m.created_at < ${range.end}` : sql``;

/**
 * A scalar SQL expression (bigint) for income, the money rule of docs/PRODUCT.md §4 Money: a member earns the fee
 * of each of their successful messages plus the referral fee of each successful message of the
 * members they referred. Globally it is everything paid to members. Pending, unknown and failed
 * rows never count. Shared with the withdraw balance so income has one definition.
 */
export function incomeSql(scope: CounterScope, range?: SqlRange): SQL {
  const when = within(range);
  if (scope === ALL_USERS) {
    return sql`(select coalesce(sum(m.fee::bigint + case when m.referrer_id is null then 0 else m.referral_fee end), 0)::bigint
      from message_logs m where m.status = 'success'${when})`;
  }
  // two index lookups (user_id and referrer_id), not one scan with an OR
  return sql`((select coalesce(sum(m.fee), 0)::bigint from message_logs m
      where m.user_id = ${scope.userId} and m.status = 'success'${when})
    + (select coalesce(sum(m.referral_fee), 0)::bigint from message_logs m
      where m.referrer_id = ${scope.userId} and m.status = 'success'${when}))`;
}

/** SQL for the message log counters; nothing else. */
export class MessageLogRepo {
  constructor(private readonly db: Db) {}

  /** Settled sends only: the engine's transient 'pending' and 'unknown' rows are left out. */
  async counts(scope: CounterScope, range?: SqlRange): Promise<SuccessFailCount> {
    const owner = scope === ALL_USERS ? sql`` : sql`m.user_id = ${scope.userId} and `;
    const [r] = await rows<{ success: string | number; fail: string | number }>(
      this.db,
      sql`select count(*) filter (where m.status = 'success') as success,
                 count(*) filter (where m.status = 'fail') as fail
          from message_logs m where ${owner}m.status in ('success', 'fail')${within(range)}`,
    );
    return { success: Number(r?.success ?? 0), fail: Number(r?.fail ?? 0) };
  }

  async income(scope: CounterScope, range?: SqlRange): Promise<number> {
    const [r] = await rows<{ income: string | number }>(this.db, sql`select ${incomeSql(scope, range)} as income`);
    return Number(r?.income ?? 0);
  }
}
