import { type Db, preparedRows, type RawRow, rows } from '@wa/core/db/client';
import type { campaigns, messageTemplates } from '@wa/core/db/schema/index';
import { msUntilWindow } from '@wa/core/local-time';
import { type SQL, sql } from 'drizzle-orm';
import type { BlastTemplate, ClaimedTarget } from './blast.repo';

/** A campaign's variant as the blast sends it. */
export interface Variant extends BlastTemplate {
  weight: number;
}

/** An active campaign as the blast knows it (read again every PLAN_TTL_MS with the plan). */
export interface ActiveCampaign {
  id: number;
  windowStart: string | null;
  windowEnd: string | null;
  startAt: Date | null;
  /** the approved, active variants with a weight, by id */
  variants: Variant[];
}

/**
 * The most messages a campaign may send, in SQL: its message budget, and what its rupiah budget
 * buys at its price per delivered message (every message counted as delivered, so the rupiah
 * budget is never overspent); null: no cap.
 */
export const CAMPAIGN_CAP = (c: SQL) => sql`(case
    when ${c}.budget_amount is not null and ${c}.price_per_delivered > 0
      then least(coalesce(${c}.budget_messages::bigint, ${c}.budget_amount), ${c}.budget_amount / ${c}.price_per_delivered)
    else ${c}.budget_messages end)`;

type VariantRow = Pick<RawRow<typeof messageTemplates>, 'id' | 'media' | 'text_wa' | 'weight'>;

/** A row of activeCampaigns (`start_at` a Date on PostgreSQL, text on PGlite; the variants JSON). */
type CampaignRow = Pick<RawRow<typeof campaigns, Date | string>, 'id' | 'window_start' | 'window_end' | 'start_at'> & {
  variants: VariantRow[] | string | null;
};

/**
 * The active campaigns that may send (not ended, a target left to claim) with their sendable
 * variants: approved, active, weighted. A campaign without one is left out (the blast never claims
 * its targets).
 */
export async function activeCampaigns(db: Db): Promise<ActiveCampaign[]> {
  const list = await preparedRows<CampaignRow>(
    db,
    sql`select c.id, c.window_start, c.window_end, c.start_at,
               (select json_agg(json_build_object('id', t.id, 'media', t.media, 'text_wa', t.text_wa,
                                                  'weight', t.weight) order by t.id)
                from message_templates t
                where t.campaign_id = c.id and t.status = 'active' and t.approved_at is not null
                  and t.weight > 0) as variants
        from campaigns c
        where c.status = 'active' and (c.end_at is null or c.end_at > now())
          -- one with nothing left to claim is passed over before it costs a claim (its index entry)
          and exists (select 1 from phone_numbers p
                      where p.campaign_id = c.id and p.status = 'active' and p.last_sent is null and p.in_use = 0)
        order by c.id`,
  );
  const out: ActiveCampaign[] = [];
  for (const r of list) {
    const variants: VariantRow[] | null = typeof r.variants === 'string' ? JSON.parse(r.variants) : r.variants;
    if (!variants?.length) continue;
    out.push({
      id: r.id,
      windowStart: r.window_start,
      windowEnd: r.window_end,
      startAt: r.start_at ? new Date(r.start_at) : null,
      variants: variants.map((v) => ({ id: v.id, media: v.media, textWa: v.text_wa, weight: Number(v.weight) })),
    });
  }
  return out;
}

/** How long until the campaign may send, in ms (0: now): its start, then its own hours. */
export function msUntilCampaign(c: ActiveCampaign, at: Date, timeZone: string): number {
  const start = c.startAt ? c.startAt.getTime() - at.getTime() : 0;
  if (start > 0) return start;
  if (!c.windowStart || !c.windowEnd) return 0;
  return msUntilWindow(at, c.windowStart, c.windowEnd, timeZone);
}

type ClaimRow = { picked: number | null } & { [K in keyof ClaimedTarget]: ClaimedTarget[K] | null };

/**
 * Claims the next `n` targets of one campaign among `ids` (the active campaigns that may send now),
 * in one statement: the campaign with the highest priority goes first, and among equals the one
 * that waited longest since it last gave targets (`served_at`), so equals take turns. Its row is
 * locked while its budget is taken (`reserved`), so concurrent blasts never claim past the budget;
 * the targets are claimed as the pool's are (SKIP LOCKED, the first marked started; see
 * claimTargets). A campaign with nothing left to claim is passed over for the next. Empty: none
 * of them has a target to give.
 */
export async function claimFromCampaigns(
  db: Db,
  accountId: number,
  n: number,
  ids: number[],
): Promise<ClaimedTarget[]> {
  let left = ids;
  while (left.length) {
    const found = await preparedRows<ClaimRow>(
      db,
      sql`with pick as (
            select c.id, ${CAMPAIGN_CAP(sql`c`)} as cap, c.reserved from campaigns c
            where c.id = any(${`{${left.join(',')}}`}::int[]) and c.status = 'active'
              and (c.start_at is null or c.start_at <= now()) and (c.end_at is null or c.end_at > now())
              and (${CAMPAIGN_CAP(sql`c`)} is null or c.reserved < ${CAMPAIGN_CAP(sql`c`)})
            order by c.priority desc, c.served_at asc nulls first, c.id
            limit 1
            for update
          ), t as (
            select p.id from phone_numbers p
            where p.campaign_id = (select id from pick) and p.status = 'active' and p.last_sent is null
              and p.in_use = 0
            order by p.id
            limit (select least(${n}::bigint, coalesce(pick.cap - pick.reserved, ${n}::bigint)) from pick)
            for update skip locked
          ), u as (
            update phone_numbers p
            set in_use = 1, claimed_by = ${accountId}::int, claim_started = (p.id = (select min(id) from t))
            from t where p.id = t.id
            returning p.id, p.number, p.name, p.campaign_id
          ), g as (
            update campaigns c set reserved = c.reserved + k.n, served_at = now()
            from (select count(*)::int as n from u) k
            where c.id = (select id from pick) and k.n > 0
          )
          select (select id from pick) as picked, u.id, u.number, u.name, u.campaign_id
          from (select 1) one left join u on true`,
    );
    const picked = found[0]?.picked ?? null;
    if (picked === null) return [];
    const targets = found.filter((r): r is ClaimRow & ClaimedTarget => r.id !== null);
    if (targets.length) {
      return targets.map((t) => ({ id: t.id, number: t.number, name: t.name, campaign_id: t.campaign_id }));
    }
    left = left.filter((id) => id !== Number(picked));
  }
  return [];
}

/**
 * The variant a campaign's target gets, by weight: `draw` in [0, 1) (seeded by the target, so the
 * same target always gets the same variant), over the variants' cumulative weights.
 */
export function pickVariant(variants: Variant[], draw: number): Variant | null {
  const total = variants.reduce((sum, v) => sum + Math.max(0, v.weight), 0);
  if (total <= 0) return null;
  let at = draw * total;
  for (const v of variants) {
    at -= Math.max(0, v.weight);
    if (at < 0) return v;
  }
  return variants[variants.length - 1] ?? null;
}

/** Whether an active campaign still has a target to give (a blast waiting for its hours asks). */
export async function campaignHasTargets(db: Db, id: number): Promise<boolean> {
  const r = await rows<{ id: number }>(
    db,
    sql`select id from phone_numbers
        where campaign_id = ${id} and status = 'active' and last_sent is null and in_use = 0 limit 1`,
  );
  return r.length > 0;
}
