import { sql } from 'drizzle-orm';
import { type Db, rows } from '../db/client';

/**
 * The default pool's blast counts (the admin dashboard's blasted / not yet blasted, issue 23):
 * migration 0021's triggers on phone_numbers keep them in `phone_pool_counts`, one row per
 * connection that changed them, in the statement that changes a number. Reading them is a sum of
 * those rows; the ledger fold collects the rows into row 0 so that they stay few.
 */
export interface PoolCounts {
  blasted: number;
  unBlasted: number;
}

/** The pool's counts as the triggers kept them. */
export async function poolCounts(db: Db): Promise<PoolCounts> {
  const [r] = await rows<{ blasted: string | number | null; unblasted: string | number | null }>(
    db,
    sql`select sum(blasted) as blasted, sum(unblasted) as unblasted from phone_pool_counts`,
  );
  return { blasted: Number(r?.blasted ?? 0), unBlasted: Number(r?.unblasted ?? 0) };
}

/**
 * Adds every connection's row into row 0 and removes them, in one statement: a row a connection is
 * writing just now (locked) is left for the next time, so this never waits on the send path, and
 * the send path waits on it only for the statement. Returns how many rows it collected.
 */
export async function collectPoolCounts(db: Db): Promise<number> {
  const [r] = await rows<{ n: number }>(
    db,
    sql`with d as (
          delete from phone_pool_counts
          where pid in (select pid from phone_pool_counts where pid <> 0 for update skip locked)
          returning blasted, unblasted
        ), s as (
          select count(*)::int as n, coalesce(sum(blasted), 0) as blasted, coalesce(sum(unblasted), 0) as unblasted from d
        ), z as (
          insert into phone_pool_counts as c (pid, blasted, unblasted)
          select 0, s.blasted, s.unblasted from s where s.n > 0
          on conflict (pid) do update set blasted = c.blasted + excluded.blasted, unblasted = c.unblasted + excluded.unblasted
        )
        select n from s`,
  );
  return Number(r?.n ?? 0);
}

/** The pool's counts as a count of phone_numbers makes them (what the triggers must agree with). */
export async function recountPool(db: Db): Promise<PoolCounts> {
  const [r] = await rows<{ blasted: number; unblasted: number }>(
    db,
    sql`select count(*) filter (where last_sent is not null)::int as blasted,
               count(*) filter (where status = 'active' and last_sent is null)::int as unblasted
        from phone_numbers where campaign_id is null`,
  );
  return { blasted: Number(r?.blasted ?? 0), unBlasted: Number(r?.unblasted ?? 0) };
}

/** What a recount finds wrong with the kept counts, empty when they agree (read in the caller's snapshot). */
export async function poolCountDifferences(db: Db): Promise<string[]> {
  const [kept, recount] = [await poolCounts(db), await recountPool(db)];
  return kept.blasted === recount.blasted && kept.unBlasted === recount.unBlasted
    ? []
    : [`pool counts: kept ${JSON.stringify(kept)}, recount ${JSON.stringify(recount)}`];
}

/**
 * Where everybody's money totals (money_totals, kept by migration 0022's triggers) differ from a sum
 * of bonuses and of the withdrawals holding money: empty when they agree (the caller's snapshot).
 */
export async function moneyTotalDifferences(db: Db): Promise<string[]> {
  const diffs = await rows<{ name: string; kept: string | number | null; summed: string | number | null }>(
    db,
    sql`with s as (
          select 'bonuses' as name, coalesce(sum(nominal), 0) as summed from bonuses
          union all
          select 'withdrawals_held', coalesce(sum(nominal), 0) from withdrawals where status in ('requested', 'accepted')
        )
        select s.name, t.total as kept, s.summed from s left join money_totals t on t.name = s.name
        where t.total is distinct from s.summed`,
  );
  return diffs.map((d) => `money total ${d.name}: kept ${d.kept ?? 'nothing'}, summed ${d.summed}`);
}
