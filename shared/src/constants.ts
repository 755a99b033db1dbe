/** Business constants of spec §9 and the enums of §3/§4, as string literals. */

/** The spec's four roles (§6), and `client`: an advertiser who buys campaigns (issue 22). */
export const ROLES = ['member', 'staff', 'dev', 'admin', 'client'] as const;
export type Role = (typeof ROLES)[number];

/** The roles that run the service or work on it: every role but the advertisers' `client`. */
export const OPERATING_ROLES = ['member', 'staff', 'dev', 'admin'] as const satisfies readonly Role[];

/** §6: any role value other than member, staff or dev (or issue 22's client) is treated as admin. */
export function normalizeRole(role: string | null | undefined): Role | null {
  if (!role) return null;
  if (role === 'member' || role === 'staff' || role === 'dev' || role === 'client') return role;
  return 'admin';
}

/** Cookies (§3, §9): ten years, path /, SameSite lax, Secure only over https. */
export const COOKIE_MAX_AGE_SECONDS = 60 * 60 * 24 * 365 * 10;
export const AUTH_COOKIE = 'authToken';
export const USER_COOKIE = 'user';
export const ANALYTICS_COOKIE = 'analytics';

/** localStorage keys (§3). */
export const THEME_STORAGE_KEY = 'theme';
export const REFERRAL_STORAGE_KEY = 'referral_code';

/** Layout (§9). */
export const MOBILE_BREAKPOINT = 768;
export const DESKTOP_BREAKPOINT = 1024;
export const SIDEBAR_EXPANDED_PX = 290;
export const SIDEBAR_COLLAPSED_PX = 90;
export const MARQUEE_SPEED = 50;
/** The monitor's JSON viewers group a collection longer than this into ranges of entries (§9). */
export const JSON_COLLECTION_LIMIT = 50;

/** Timings (§9), in milliseconds unless named otherwise. */
export const QR_REQUEST_TIMEOUT_MS = 120_000;
export const QR_COUNTDOWN_S = 60;
export const PAIRING_COUNTDOWN_S = 90;
export const GENERATING_WAIT_S = 15;
export const REFRESH_DELAY_MS = 1_000;
export const FLASH_MS = 1_000;

/** Money (§9): whole rupiah. */
export const MIN_WITHDRAW = 10_000;
export const MAX_SUSPENDED_REACTIVATE = 3;

/** Paging: the spec leaves the size to the server; one size everywhere. */
export const PAGE_SIZE = 10;

/** Defaults of the settings row (§9). */
export const DEFAULT_SETTINGS = {
  interval_min: 5,
  interval_max: 15,
  price: 50,
  bank_names: 'BCA, MANDIRI, BRI',
  colors: '#3C50E0, #10B981',
  referral_percent: 0,
  info: 'Selamat datang di WA Blaster — Whatsapp Blaster for Rent.',
} as const;

export const WHATSAPP_STATES = [
  'connected',
  'loggedOut',
  'conflict',
  'disconnected',
  'unknown',
  'sending',
  'suspended',
  'reconnecting...',
] as const;
export type WhatsappState = (typeof WHATSAPP_STATES)[number];

export const RUN_STATUSES = ['idle', 'sending'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const ACTIVE_STATUSES = ['active', 'nonactive'] as const;
export type ActiveStatus = (typeof ACTIVE_STATUSES)[number];
/** A target number's status: 'optout' once the target asked to stop (account safety); never messaged again. */
export const PHONE_STATUSES = ['active', 'nonactive', 'optout'] as const;
export type PhoneStatus = (typeof PHONE_STATUSES)[number];

export const PROXY_STATUSES = ['active', 'in use', 'nonactive'] as const;
export type ProxyStatus = (typeof PROXY_STATUSES)[number];

export const WITHDRAW_STATUSES = ['requested', 'accepted', 'rejected'] as const;
export type WithdrawStatus = (typeof WITHDRAW_STATUSES)[number];

export const BUTTON_TYPES = ['reply_button', 'call_button', 'url_button', 'stop_button'] as const;
export type ButtonType = (typeof BUTTON_TYPES)[number];

/**
 * A blast message's log status: pending (claimed, sending), sent (WhatsApp accepted it),
 * delivered, read, failed (refused, or reported failed), unknown (the worker died while sending).
 */
export const MESSAGE_LOG_STATUSES = ['pending', 'sent', 'delivered', 'read', 'failed', 'unknown'] as const;
export type MessageLogStatus = (typeof MESSAGE_LOG_STATUSES)[number];

/** When a member earns a message's fee (settings' payout_on). */
export const PAYOUT_ON = ['accepted', 'delivered'] as const;
export type PayoutOn = (typeof PAYOUT_ON)[number];

export const TELEGRAM_URL = 'https://t.me/wablaster';
