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
export const messageLogCount = z.object({ successCount: z.number().int(), failCount: z.number().int() });
export type MessageLogCount = z.infer<typeof messageLogCount>;

/** GET /admin/messagelog/today-count/{userId} and total-count/{userId} (§3 todayCount, totalCount). */
export const successFailCount = z.object({ success: z.number().int(), fail: z.number().int() });
export type SuccessFailCount = z.infer<typeof successFailCount>;

/** GET /admin/messagelog/today-income/{userId}: whole rupiah. */
export const incomeResponse = z.object({ income: z.number().int() });
export type IncomeResponse = z.infer<typeof incomeResponse>;

/** GET /admin/withdraw/balance/{userId}: whole rupiah. */
export interface BalanceResponse {
  balance: number;
}

/** GET /admin/bonus/total/{userId}: whole rupiah. */
export interface TotalBonusResponse {
  totalBonus: number;
}

/** GET /admin/whatsapp/count/{userId} (§3 whatsappCount). */
export const whatsappCount = z.object({ connectedCount: z.number().int(), disconnectedCount: z.number().int() });
export type WhatsappCount = z.infer<typeof whatsappCount>;

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
export const phoneBlastCount = z.object({
  blasted: z.number().int().describe('numbers sent to at least once'),
  unBlasted: z.number().int().describe('active numbers not sent to yet'),
});
export type PhoneBlastCount = z.infer<typeof phoneBlastCount>;

/** The schema of BalanceResponse. */
export const balanceResponse = z.object({ balance: z.number().int() });

/** The schema of TotalBonusResponse. */
export const totalBonusResponse = z.object({ totalBonus: z.number().int() });

/** The schema of UsersActiveCount. */
export const usersActiveCount = z.object({ count: z.number().int() });

/** The schema of ProxyUseCount. */
export const proxyUseCount = z.object({ unUsed: z.number().int(), used: z.number().int() });
