import { type Db, type RawRow, rows } from '@wa/core/db/client';
import type { settings } from '@wa/core/db/schema/index';
import { PUBLIC_SETTING_FIELDS, type PublicSettingsDto, SAFETY_SETTING_FIELDS, type SettingDto } from '@wa/shared';
import { type SQL, sql } from 'drizzle-orm';

const COLS = sql`interval_min, interval_max, price, bank_names, colors, referral_percent, info,
  optout_keywords, fail_streak_pause, pause_hours, daily_cap_start, daily_cap_growth, daily_cap_max,
  send_window_start, send_window_end, check_budget_daily, check_cache_days, payout_on, undelivered_window_hours,
  terms_text, privacy_text, support_contact, telegram_url`;

/**
 * The columns of COLS: the settings as the API answers them (a column of another type would not
 * compile as a SettingDto); payout_on is held to its values by the settings_payout_on check.
 */
type SettingsRow = Omit<Pick<RawRow<typeof settings>, keyof SettingDto>, 'payout_on'> & Pick<SettingDto, 'payout_on'>;

/** An update: the §5 fields, and the account-safety and public-page ones when given. */
export type SettingsUpdate = Omit<SettingDto, OptionalSettingField> & Partial<Pick<SettingDto, OptionalSettingField>>;

const OPTIONAL_SETTING_FIELDS = [...SAFETY_SETTING_FIELDS, ...PUBLIC_SETTING_FIELDS] as const;
type OptionalSettingField = (typeof OPTIONAL_SETTING_FIELDS)[number];

/** `col = coalesce(value, col)` for each optional field: an absent one keeps its value. */
function keepAbsent(v: SettingsUpdate): SQL {
  return sql.join(
    OPTIONAL_SETTING_FIELDS.map((f) => sql`${sql.identifier(f)} = coalesce(${v[f] ?? null}, ${sql.identifier(f)})`),
    sql`, `,
  );
}

/** SQL for the one settings row; nothing else. */
export class SettingsRepo {
  constructor(private readonly db: Db) {}

  async get(): Promise<SettingDto> {
    const [r] = await rows<SettingsRow>(this.db, sql`select ${COLS} from settings where id = 1`);
    return r;
  }

  /** Only the public fields: what GET /api/settings/public answers to anyone. */
  async getPublic(): Promise<PublicSettingsDto> {
    const [r] = await rows<Pick<RawRow<typeof settings>, keyof PublicSettingsDto>>(
      this.db,
      sql`select terms_text, privacy_text, support_contact, telegram_url from settings where id = 1`,
    );
    return r;
  }

  /** The optional fields the body left out keep their values. */
  async update(v: SettingsUpdate): Promise<SettingDto> {
    const [r] = await rows<SettingsRow>(
      this.db,
      sql`update settings set interval_min = ${v.interval_min}, interval_max = ${v.interval_max}, price = ${v.price},
            bank_names = ${v.bank_names}, colors = ${v.colors}, referral_percent = ${v.referral_percent},
            info = ${v.info}, ${keepAbsent(v)}, updated_at = now()
          where id = 1 returning ${COLS}`,
    );
    return r;
  }
}
