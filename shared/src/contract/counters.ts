import { z } from 'zod';

/** The global figure of the admin and dev dashboards: every user's rows together. */
export const ALL_USERS = 'all';

/**
 * The `{userId}` of a dashboard counter (§7 Message log, withdraw and bonus): a user id, or `all`
 * (also spelled `0`) for every user at once.
 */
export const counterUserParam = z
  .string({ error: (issue) => (issue.input === undefined ? 'userId is missing' : 'userId must be text.') })
  .trim()
  .transform((v, ctx): number | typeof ALL_USERS => {
    if (v === ALL_USERS || v === '0') return ALL_USERS;
    const n = /^\d{1,10}$/.test(v) ? Number(v) : Number.NaN;
    if (!Number.isInteger(n) || n < 1 || n > 2_147_483_647) {
      ctx.addIssue({ code: 'custom', message: "userId must be a user id or 'all'" });
      return z.NEVER;
    }
    return n;
  });
export type CounterUser = z.output<typeof counterUserParam>;

/** GET /admin/messagelog/count/{userId} (§3 messageLogCount). */
export interface MessageLogCount {
  successCount: number;
  failCount: number;
}

/** GET /admin/messagelog/today-count/{userId} and total-count/{userId} (§3 todayCount, totalCount). */
export interface SuccessFailCount {
  success: number;
  fail: number;
}

/** GET /admin/messagelog/today-income/{userId}: whole rupiah. */
export interface IncomeResponse {
  income: number;
}

/** GET /admin/withdraw/balance/{userId}: whole rupiah. */
export interface BalanceResponse {
  balance: number;
}

/** GET /admin/bonus/total/{userId}: whole rupiah. */
export interface TotalBonusResponse {
  totalBonus: number;
}

/** GET /admin/whatsapp/count/{userId} (§3 whatsappCount). */
export interface WhatsappCount {
  connectedCount: number;
  disconnectedCount: number;
}

/** GET /admin/users/active (§3 usersActiveCount). */
export interface UsersActiveCount {
  count: number;
}

/** GET /admin/proxy/count-use. */
export interface ProxyUseCount {
  unUsed: number;
  used: number;
}

/** GET /admin/phonenumber/count-blast. */
export interface PhoneBlastCount {
  blasted: number;
  unBlasted: number;
}
