import { type Db, type RawRow, rows } from '@wa/core/db/client';
import type { numberChecks, phoneNumbers, settings } from '@wa/core/db/schema/index';
import { today } from '@wa/core/ledger/daily';
import { normalizePhone } from '@wa/shared';
import { sql } from 'drizzle-orm';

/** The settings the account-safety rules read (see docs/PRODUCT.md "Account safety"). */
export interface SafetySettings {
  /** a target's whole reply that opts them out, lower-cased */
  optoutKeywords: string[];
  failStreakPause: number;
  pauseHours: number;
}

export async function safetySettings(db: Db): Promise<SafetySettings> {
  const [r] = await rows<Pick<RawRow<typeof settings>, 'optout_keywords' | 'fail_streak_pause' | 'pause_hours'>>(
    db,
    sql`select optout_keywords, fail_streak_pause, pause_hours from settings where id = 1`,
  );
  return {
    optoutKeywords: (r?.optout_keywords ?? '')
      .split(',')
      .map((k) => k.trim().toLowerCase())
      .filter(Boolean),
    failStreakPause: r?.fail_streak_pause ?? 5,
    pauseHours: r?.pause_hours ?? 6,
  };
}

/**
 * Rule #1: marks the blast message with this WhatsApp id, sent by this account, as deleted for
 * everyone. True only the first time for a message the blast sent (a revoke of anything else, or
 * the same revoke heard twice, changes nothing).
 */
export async function markRevoked(db: Db, accountId: number, waMessageId: string): Promise<boolean> {
  const r = await rows<{ id: number }>(
    db,
    sql`update message_logs set revoked_at = now()
        where wa_message_id = ${waMessageId} and whatsapp_id = ${accountId} and status in ('sent', 'delivered', 'read') and revoked_at is null
        returning id`,
  );
  return r.length > 0;
}

/** An incoming message as the engine logs it. */
export interface Incoming {
  accountId: number;
  from: string;
  text: string;
  buttonId: string | null;
}

/** A reply of a campaign (issue 22), as its client's webhook tells it: never the member's account. */
export interface CampaignReply {
  reply_id: number;
  campaign_id: number;
  clientId: number;
  variant_id: number | null;
  target: string;
  text: string;
  at: string;
}

/** A number's target rows: the pool's and every campaign's (each by its own index). */
type TargetRow = Pick<RawRow<typeof phoneNumbers>, 'id' | 'status' | 'campaign_id'> & { was: string };

/**
 * Logs a message a target sent to the account and decides whether it opts them out: its whole
 * text is one of the keywords (case-insensitive), or the button pressed is a template's stop
 * button. An opted-out number gets status 'optout' in the target list and in every campaign's
 * (an opt-out is the person's, whoever messaged them), which every claim and every campaign
 * import skips. A message that answers a campaign's message (the latest this account sent to the
 * number) is that campaign's reply: it counts once per target in the campaign's `replied`, and an
 * opt-out in its `optout`. Returns whether it opted out, the pool's target row it changed, if the
 * number is in the pool, and the campaign's reply, if it is one.
 */
export async function logIncoming(
  db: Db,
  m: Incoming,
  keywords: string[],
  timeZone: string,
): Promise<{ optout: boolean; target: { id: number; status: string } | null; reply: CampaignReply | null }> {
  const sender = normalizePhone(m.from) ?? m.from.replace(/\D/g, '');
  const byKeyword = keywords.includes(m.text.trim().toLowerCase());
  const byButton =
    m.buttonId !== null &&
    (
      await rows<{ id: number }>(
        db,
        sql`select id from message_templates
            where button @> ${JSON.stringify([{ id: m.buttonId, type: 'stop_button' }])}::jsonb limit 1`,
      )
    ).length > 0;
  const optout = byKeyword || byButton;
  const text = m.text.slice(0, 4000);
  return db.transaction(async (tx) => {
    // the pool's row and the campaigns' rows, each found by its own partial index
    const rowsOf = (pool: boolean) =>
      sql`p.number = ${sender} and p.campaign_id is ${pool ? sql`null` : sql`not null`}`;
    const optOut = (pool: boolean) =>
      sql`update phone_numbers p set status = 'optout' from phone_numbers o
          where o.id = p.id and ${rowsOf(pool)} returning p.id, p.status, p.campaign_id, o.status as was`;
    const find = (pool: boolean) =>
      sql`select p.id, p.status, p.campaign_id, p.status as was from phone_numbers p where ${rowsOf(pool)}`;
    const targets = await rows<TargetRow>(
      tx,
      optout
        ? sql`with a as (${optOut(true)}), b as (${optOut(false)}) select * from a union all select * from b`
        : sql`(${find(true)}) union all (${find(false)})`,
    );
    const target = targets.find((t) => t.campaign_id === null) ?? null;
    const campaignTargets = targets.filter((t) => t.campaign_id !== null).map((t) => t.id);
    // two messages of one number at once: the second waits here for the first, so a reply counts once
    if (campaignTargets.length && !optout) {
      await tx.execute(sql`select id from phone_numbers where id = any(${`{${campaignTargets.join(',')}}`}::int[])
                           order by id for update`);
    }
    const answered = await answeredCampaign(tx, m.accountId, campaignTargets);
    const [logged] = await rows<{ id: number; created_at: string | Date }>(
      tx,
      sql`insert into incoming_messages (whatsapp_id, phone_number_id, sender, text, button_id, optout, campaign_id)
          values (${m.accountId}, ${answered?.phone_number_id ?? target?.id ?? null}, ${sender}, ${text}, ${m.buttonId},
                  ${optout}, ${answered?.campaign_id ?? null})
          returning id, created_at`,
    );
    // the account's day row counts its opt-outs (the report's optout column)
    if (optout) {
      await tx.execute(sql`
        insert into account_daily as d (whatsapp_id, day, user_id, optout)
        select w.id, ${today(timeZone)}, w.user_id, 1 from whatsapp_accounts w where w.id = ${m.accountId}
        on conflict (whatsapp_id, day) do update set optout = d.optout + 1`);
    }
    let reply: CampaignReply | null = null;
    if (answered && logged) {
      const row = targets.find((t) => t.id === answered.phone_number_id);
      const optedOutNow = optout && row?.was !== 'optout';
      const [c] = await rows<{ client_id: number }>(
        tx,
        sql`update campaigns set replied = replied + ${answered.first ? 1 : 0}, optout = optout + ${optedOutNow ? 1 : 0}
            where id = ${answered.campaign_id} returning client_id`,
      );
      if (c) {
        reply = {
          reply_id: logged.id,
          campaign_id: answered.campaign_id,
          clientId: c.client_id,
          variant_id: answered.variant_id,
          target: sender,
          text,
          at: new Date(logged.created_at).toISOString(),
        };
      }
    }
    return { optout, target: target ? { id: target.id, status: target.status } : null, reply };
  });
}

/**
 * The campaign a message from one of these campaign targets answers: the latest campaign message
 * this account sent to any of them (a reply goes back to the account that wrote), and whether it
 * is the target's first reply to that campaign. Null: the account sent none of them a campaign
 * message.
 */
async function answeredCampaign(
  db: Db,
  accountId: number,
  targetIds: number[],
): Promise<{ campaign_id: number; variant_id: number | null; phone_number_id: number; first: boolean } | null> {
  if (!targetIds.length) return null;
  const [r] = await rows<{ campaign_id: number; variant_id: number | null; phone_number_id: number; first: boolean }>(
    db,
    sql`select m.campaign_id, m.variant_id, m.phone_number_id,
               not exists (select 1 from incoming_messages i
                           where i.campaign_id = m.campaign_id and i.phone_number_id = m.phone_number_id) as first
        from message_logs m
        where m.phone_number_id = any(${`{${targetIds.join(',')}}`}::int[]) and m.whatsapp_id = ${accountId}
          and m.campaign_id is not null and m.status in ('sent', 'delivered', 'read')
        order by m.id desc limit 1`,
  );
  return r ?? null;
}

/** What the generator and validator checks read of settings. */
export async function checkSettings(db: Db): Promise<{ budget: number; cacheDays: number }> {
  const [r] = await rows<Pick<RawRow<typeof settings>, 'check_budget_daily' | 'check_cache_days'>>(
    db,
    sql`select check_budget_daily, check_cache_days from settings where id = 1`,
  );
  return { budget: r?.check_budget_daily ?? 1000, cacheDays: r?.check_cache_days ?? 30 };
}

/** A number's check result from the last `days` days, or null when it must be asked again. */
export async function cachedCheck(db: Db, number: string, days: number): Promise<boolean | null> {
  if (days <= 0) return null;
  const [r] = await rows<Pick<RawRow<typeof numberChecks>, 'registered'>>(
    db,
    sql`select registered from number_checks where number = ${number} and checked_at > now() - ${days} * interval '1 day'`,
  );
  return r ? r.registered : null;
}

/** Keeps a number's check result for the next checks of any tool. */
export async function rememberCheck(db: Db, number: string, registered: boolean): Promise<void> {
  await db.execute(sql`insert into number_checks (number, registered) values (${number}, ${registered})
    on conflict (number) do update set registered = excluded.registered, checked_at = now()`);
}
