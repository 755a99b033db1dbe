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

/**
 * Logs a message a target sent to the account and decides whether it opts them out: its whole
 * text is one of the keywords (case-insensitive), or the button pressed is a template's stop
 * button. An opted-out number gets status 'optout' in the target list, which every claim skips.
 * Returns whether it opted out and the target row it changed, if the number is in the list.
 */
export async function logIncoming(
  db: Db,
  m: Incoming,
  keywords: string[],
  timeZone: string,
): Promise<{ optout: boolean; target: { id: number; status: string } | null }> {
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
  return db.transaction(async (tx) => {
    const [target] = optout
      ? await rows<Pick<RawRow<typeof phoneNumbers>, 'id' | 'status'>>(
          tx,
          sql`update phone_numbers set status = 'optout' where number = ${sender}
              returning id, status`,
        )
      : await rows<Pick<RawRow<typeof phoneNumbers>, 'id' | 'status'>>(
          tx,
          sql`select id, status from phone_numbers where number = ${sender}`,
        );
    await tx.execute(sql`
      insert into incoming_messages (whatsapp_id, phone_number_id, sender, text, button_id, optout)
      values (${m.accountId}, ${target?.id ?? null}, ${sender}, ${m.text.slice(0, 4000)}, ${m.buttonId}, ${optout})`);
    // the account's day row counts its opt-outs (the report's optout column)
    if (optout) {
      await tx.execute(sql`
        insert into account_daily as d (whatsapp_id, day, user_id, optout)
        select w.id, ${today(timeZone)}, w.user_id, 1 from whatsapp_accounts w where w.id = ${m.accountId}
        on conflict (whatsapp_id, day) do update set optout = d.optout + 1`);
    }
    return { optout, target: target ?? null };
  });
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
