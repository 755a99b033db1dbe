import { sql } from 'drizzle-orm';

/**
 * An account's daily cap of blast messages with its warm-up (docs/PRODUCT.md "Account safety"):
 * settings' daily_cap_start on the day it was connected, daily_cap_growth more for each full day
 * since, at most daily_cap_max. The one place the rule is written: the account rows show it and
 * the blast stops at it. Over `whatsapp_accounts w`.
 */
export const DAILY_CAP = sql`(select least(s.daily_cap_max,
    s.daily_cap_start + s.daily_cap_growth * floor(extract(epoch from (now() - w.created_at)) / 86400))::int
  from settings s where s.id = 1)`;

/** The blast messages the account sent in the current day (its count runs out at sent_day_end). Over `w`. */
export const SENT_TODAY = sql`(case when w.sent_day_end > now() then w.sent_today else 0 end)`;
