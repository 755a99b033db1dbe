import { z } from 'zod';
import { PAYOUT_ON, type PayoutOn } from '../constants';
import { requiredNumber, requiredText, wholeNumber } from './common';

/** The one settings row (§3 Setting). */
export interface SettingDto {
  interval_min: number;
  interval_max: number;
  price: number;
  bank_names: string;
  colors: string;
  referral_percent: number;
  info: string;
  /** account safety: a target's whole reply that opts them out (case-insensitive), "A, B, C" */
  optout_keywords: string;
  /** this many failed blast sends in a row pause the account */
  fail_streak_pause: number;
  /** hours a pause after ban signals lasts */
  pause_hours: number;
  /** the daily cap of blast messages per account: on its first day, growth per day connected, maximum */
  daily_cap_start: number;
  daily_cap_growth: number;
  daily_cap_max: number;
  /** the hours blasts may send in, 'HH:MM' in APP_TIMEZONE (end before start runs over midnight) */
  send_window_start: string;
  send_window_end: string;
  /** number checks (generator/validator) per account per day */
  check_budget_daily: number;
  /** a number checked within this many days is not checked again (0: always check) */
  check_cache_days: number;
  /** when a member earns a message's fee: 'accepted' by WhatsApp (the default) or 'delivered' */
  payout_on: PayoutOn;
  /** with payout_on 'delivered': a message still undelivered after this many hours is settled unpaid */
  undelivered_window_hours: number;
  /** the /terms page's text (plain text, shown as written) */
  terms_text: string;
  /** the /privacy-policy page's text */
  privacy_text: string;
  /** how to reach the admin, shown on /reset-password (there is no self-service reset) */
  support_contact: string;
  /** the member menu's Telegram link; '' hides it */
  telegram_url: string;
}

/** The settings anyone may read, signed in or not: the public pages' texts and the Telegram link. */
export const PUBLIC_SETTING_FIELDS = ['terms_text', 'privacy_text', 'support_contact', 'telegram_url'] as const;

/** The account-safety and payout fields: optional in an update body, an absent one keeps its value (the public ones too). */
export const SAFETY_SETTING_FIELDS = [
  'optout_keywords',
  'fail_streak_pause',
  'pause_hours',
  'daily_cap_start',
  'daily_cap_growth',
  'daily_cap_max',
  'send_window_start',
  'send_window_end',
  'check_budget_daily',
  'check_cache_days',
  'payout_on',
  'undelivered_window_hours',
] as const;

/** Longest terms or privacy text an admin may save. */
export const PUBLIC_TEXT_MAX = 20_000;
/** Longest support contact. */
export const SUPPORT_CONTACT_MAX = 500;
export const TELEGRAM_URL_MSG = 'Telegram URL must be an https:// link, or empty to hide it.';

/** A page text: required when sent, plain text of at most PUBLIC_TEXT_MAX characters. */
const pageText = (label: string) =>
  z
    .string({ error: `${label} must be text.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(PUBLIC_TEXT_MAX, `${label} must be at most ${PUBLIC_TEXT_MAX} characters.`);

/** The Telegram link: empty (the menu hides it) or an absolute https:// address. */
const httpsUrlOrEmpty = z
  .string({ error: TELEGRAM_URL_MSG })
  .trim()
  .max(500, 'Telegram URL must be at most 500 characters.')
  .refine((v) => {
    if (v === '') return true;
    try {
      const u = new URL(v);
      return u.protocol === 'https:' && u.hostname !== '' && !/\s/.test(v);
    } catch {
      return false;
    }
  }, TELEGRAM_URL_MSG);

/** GET /api/settings/public: what the public pages and the menu need, readable without a token. */
export const publicSettingsResponse = z.object({
  terms_text: z.string().describe('the /terms page'),
  privacy_text: z.string().describe('the /privacy-policy page'),
  support_contact: z.string().describe('how to reach the admin, shown on /reset-password'),
  telegram_url: z.string().describe("the member menu's Telegram link; '' hides it"),
});
export type PublicSettingsDto = z.infer<typeof publicSettingsResponse>;

/** 'HH:MM' from 00:00 to 24:00. */
export const clock = (label: string) =>
  z
    .string({ error: `${label} must be a time like 08:00.` })
    .trim()
    .regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, `${label} must be a time like 08:00.`);

/** A comma-separated list, normalised to "A, B, C" (§3: comma-space separated). */
const list = (label: string, item: RegExp, itemMsg: string) =>
  requiredText(`${label} is required.`, 2000).transform((v, ctx) => {
    const items = v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (!items.length) {
      ctx.addIssue({ code: 'custom', message: `${label} is required.` });
      return z.NEVER;
    }
    const bad = items.find((i) => !item.test(i));
    if (bad) {
      ctx.addIssue({ code: 'custom', message: itemMsg.replace('{item}', bad) });
      return z.NEVER;
    }
    return items.join(', ');
  });

/** PUT /admin/setting/update (§5 Settings: all fields required; referral_percent 0–100). */
export const settingsBody = z
  .object({
    interval_min: requiredNumber('Interval min', 0, 86_400),
    interval_max: requiredNumber('Interval max', 0, 86_400),
    price: requiredNumber('Price', 0, 1_000_000_000),
    bank_names: list('Bank names', /^[^\s,][^,]{0,49}$/, 'Bank name "{item}" is too long.'),
    colors: list('Colors', /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, '"{item}" is not a hex colour like #3C50E0.'),
    referral_percent: requiredNumber('Referral percent', 0, 100),
    info: requiredText('Info is required.', 2000),
    // account safety: optional in the body, an absent one keeps its value
    optout_keywords: list('Opt-out keywords', /^[^,]{1,50}$/, 'Opt-out keyword "{item}" is too long.').optional(),
    fail_streak_pause: wholeNumber('Fail streak pause', 1, 1000).optional(),
    pause_hours: wholeNumber('Pause hours', 1, 720).optional(),
    daily_cap_start: wholeNumber('Daily cap start', 1, 100_000).optional(),
    daily_cap_growth: wholeNumber('Daily cap growth', 0, 100_000).optional(),
    daily_cap_max: wholeNumber('Daily cap max', 1, 100_000).optional(),
    send_window_start: clock('Send window start').optional(),
    send_window_end: clock('Send window end').optional(),
    check_budget_daily: wholeNumber('Check budget', 1, 1_000_000).optional(),
    check_cache_days: wholeNumber('Check cache days', 0, 3650).optional(),
    payout_on: z.enum(PAYOUT_ON, { error: "Payout on must be 'accepted' or 'delivered'." }).optional(),
    undelivered_window_hours: wholeNumber('Undelivered window hours', 1, 720).optional(),
    // the public pages: optional in the body too, an absent one keeps its value
    terms_text: pageText('Terms text').optional(),
    privacy_text: pageText('Privacy text').optional(),
    support_contact: pageText('Support contact')
      .max(SUPPORT_CONTACT_MAX, `Support contact must be at most ${SUPPORT_CONTACT_MAX} characters.`)
      .optional(),
    telegram_url: httpsUrlOrEmpty.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.interval_min > v.interval_max) {
      ctx.addIssue({
        code: 'custom',
        path: ['interval_min'],
        message: 'Interval minimal harus lebih kecil dari interval maksimal',
      });
    }
    if (v.daily_cap_start !== undefined && v.daily_cap_max !== undefined && v.daily_cap_start > v.daily_cap_max) {
      ctx.addIssue({
        code: 'custom',
        path: ['daily_cap_max'],
        message: 'Daily cap max must be at least the daily cap start.',
      });
    }
  });

/** The schema of SettingDto (response-types.ts checks that the two agree). */
export const settingDto = z.object({
  interval_min: z.number().int(),
  interval_max: z.number().int(),
  price: z.number().int(),
  bank_names: z.string().describe('"A, B, C"'),
  colors: z.string().describe('"#3C50E0, #80CAEE"'),
  referral_percent: z.number(),
  info: z.string(),
  optout_keywords: z.string(),
  fail_streak_pause: z.number().int(),
  pause_hours: z.number().int(),
  daily_cap_start: z.number().int(),
  daily_cap_growth: z.number().int(),
  daily_cap_max: z.number().int(),
  send_window_start: z.string().describe("'HH:MM' in APP_TIMEZONE"),
  send_window_end: z.string(),
  check_budget_daily: z.number().int(),
  check_cache_days: z.number().int(),
  payout_on: z.enum(PAYOUT_ON),
  undelivered_window_hours: z.number().int(),
  terms_text: z.string(),
  privacy_text: z.string(),
  support_contact: z.string(),
  telegram_url: z.string(),
});

/** GET /admin/setting/get */
export const settingResponse = z.object({ setting: settingDto });

/** PUT /admin/setting/update */
export const savedSetting = z.object({ setting: settingDto, msg: z.string() });
