import { BONUS, type BodyIn, WITHDRAW, type WithdrawStatus } from '@wa/shared';
import { request } from '../../api/client';

/** The figures of the /withdraw balance summary, whole rupiah. */
export interface WithdrawSummary {
  balance: number;
  income: number;
  bonus: number;
  requested: number;
  accepted: number;
}

/** §7 Withdraw calls. */
export const withdrawApi = {
  /** one user's history (`userId`), or every request when absent (admin, dev, staff) */
  page: (page: number, userId?: number) =>
    request(WITHDRAW.page, {
      query: { page, user_id: userId || undefined },
      fallback: 'Error fetching Withdraw list',
    }),
  request: (body: BodyIn<typeof WITHDRAW.request>) =>
    request(WITHDRAW.request, { body, fallback: 'Network error. Please try again.' }),
  update: (id: number, status: WithdrawStatus) =>
    request(WITHDRAW.update, { body: { id, status }, fallback: 'Network error. Please try again.' }),
  async summary(userId: number): Promise<WithdrawSummary> {
    const params = { userId: String(userId) };
    const [balance, income, bonus, requested, accepted] = await Promise.all([
      request(WITHDRAW.balance, { params, fallback: 'Error fetching Balance' }),
      request(WITHDRAW.income, { params, fallback: 'Error fetching Income' }),
      request(BONUS.total, { params, fallback: 'Error fetching Bonus total' }),
      request(WITHDRAW.totalRequested, { params, fallback: 'Error fetching Withdraw Total' }),
      request(WITHDRAW.totalAccepted, { params, fallback: 'Error fetching Withdraw Total' }),
    ]);
    return {
      balance: balance.balance,
      income: income.income,
      bonus: bonus.totalBonus,
      requested: requested.total,
      accepted: accepted.total,
    };
  },
};
