import {
  ANALYTICS_COOKIE,
  type MessageLogCount,
  type PhoneBlastCount,
  type ProxyUseCount,
  type SuccessFailCount,
  type UsersActiveCount,
  type WhatsappCount,
} from '@wa/shared';
import { getCookie, setCookie } from '../../lib/cookies';

/**
 * The dashboard figures kept in the 'analytics' cookie (§3): the eight of the spec, plus the
 * proxy and phone-number counts that §7 says are "cached locally". Cleared on login and sign-up
 * (lib/cookies storeSession).
 */
export interface Analytics {
  usersActiveCount: UsersActiveCount;
  whatsappCount: WhatsappCount;
  messageLogCount: MessageLogCount;
  todayIncome: number;
  balance: number;
  todayCount: SuccessFailCount;
  totalCount: SuccessFailCount;
  totalBonus: number;
  proxyCount: ProxyUseCount;
  phoneCount: PhoneBlastCount;
}
export type CachedAnalytics = Partial<Analytics>;

const isCount = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const hasCounts = (v: unknown, keys: string[]) =>
  typeof v === 'object' && v !== null && keys.every((k) => isCount((v as Record<string, unknown>)[k]));

const SHAPES: { [K in keyof Analytics]: (v: unknown) => boolean } = {
  usersActiveCount: (v) => hasCounts(v, ['count']),
  whatsappCount: (v) => hasCounts(v, ['connectedCount', 'disconnectedCount']),
  messageLogCount: (v) => hasCounts(v, ['successCount', 'failCount']),
  todayIncome: isCount,
  balance: isCount,
  todayCount: (v) => hasCounts(v, ['success', 'fail']),
  totalCount: (v) => hasCounts(v, ['success', 'fail']),
  totalBonus: isCount,
  proxyCount: (v) => hasCounts(v, ['unUsed', 'used']),
  phoneCount: (v) => hasCounts(v, ['blasted', 'unBlasted']),
};

/**
 * The cached figures in `raw` when they were cached for `userId` (the cookie outlives a sign-out,
 * so another user's figures are never shown); values of the wrong shape are dropped.
 */
export function parseAnalytics(raw: string | null, userId: number): CachedAnalytics {
  if (!raw) return {};
  let stored: unknown;
  try {
    stored = JSON.parse(raw);
  } catch {
    return {};
  }
  if (typeof stored !== 'object' || stored === null) return {};
  const record = stored as Record<string, unknown>;
  if (record.userId !== userId) return {};
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(SHAPES) as (keyof Analytics)[]) {
    if (SHAPES[key](record[key])) out[key] = record[key];
  }
  return out as CachedAnalytics;
}

export function readAnalytics(userId: number): CachedAnalytics {
  return parseAnalytics(getCookie(ANALYTICS_COOKIE), userId);
}

/** Keeps the figures for next time, with the cookie's long lifetime. */
export function writeAnalytics(userId: number, values: CachedAnalytics): void {
  setCookie(ANALYTICS_COOKIE, JSON.stringify({ userId, ...values }));
}
