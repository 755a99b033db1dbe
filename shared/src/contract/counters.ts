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

/**
 * A copy of a single counter's schema (same fields), described: the OpenAPI document converts each
 * answer on its own, and the counter's own schema (or a clone of it) inside another answer would
 * be written as a reference to that route's answer.
 */
const figure = <S extends z.ZodRawShape>(schema: z.ZodObject<S>, description: string) =>
  z.object(schema.shape).describe(description);

/**
 * GET /admin/dashboard/counters/{userId} for one user (issue 23): every figure of the member
 * dashboard in one answer, each as its own counter route gives it.
 */
export const userDashboardCounters = z.object({
  scope: z.literal('user').describe("one user's figures: the member dashboard"),
  whatsappCount: figure(whatsappCount, 'as GET /admin/whatsapp/count/{userId}'),
  messageLogCount: figure(messageLogCount, 'as GET /admin/messagelog/count/{userId}'),
  todayIncome: z.number().int().describe('`income` of GET /admin/messagelog/today-income/{userId}: whole rupiah'),
  balance: z.number().int().describe('`balance` of GET /admin/withdraw/balance/{userId}: whole rupiah'),
  totalBonus: z.number().int().describe('`totalBonus` of GET /admin/bonus/total/{userId}: whole rupiah'),
});

/**
 * GET /admin/dashboard/counters/all (issue 23): every figure of the admin and dev dashboard in one
 * answer, each as its own counter route gives it.
 */
export const allDashboardCounters = z.object({
  scope: z.literal('all').describe("everybody's figures: the admin and dev dashboard"),
  proxyCount: figure(proxyUseCount, 'as GET /admin/proxy/count-use'),
  phoneCount: figure(phoneBlastCount, 'as GET /admin/phonenumber/count-blast'),
  whatsappCount: figure(whatsappCount, 'as GET /admin/whatsapp/count/all'),
  usersActiveCount: figure(usersActiveCount, 'as GET /admin/users/active'),
  todayCount: figure(successFailCount, 'as GET /admin/messagelog/today-count/all'),
  totalCount: figure(successFailCount, 'as GET /admin/messagelog/total-count/all'),
});

/** GET /admin/dashboard/counters/{userId}: a user's dashboard figures, or (`all`) everybody's. */
export const dashboardCounters = z.discriminatedUnion('scope', [userDashboardCounters, allDashboardCounters]);
export type DashboardCounters = z.infer<typeof dashboardCounters>;
