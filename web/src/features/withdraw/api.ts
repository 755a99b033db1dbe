import type {
  BalanceResponse,
  IncomeResponse,
  Paged,
  TotalBonusResponse,
  WithdrawDto,
  WithdrawRequestBody,
  WithdrawStatus,
  WithdrawTotalResponse,
} from '@wa/shared';
import { call } from '../../api/client';

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
    call<Paged<WithdrawDto>>(`/admin/withdraw/histories-per-page?page=${page}${userId ? `&user_id=${userId}` : ''}`, {
      fallback: 'Error fetching Withdraw list',
    }),
  request: (body: WithdrawRequestBody) =>
    call<{ withdraw: WithdrawDto; msg: string }>('/admin/withdraw/request', {
      method: 'POST',
      body,
      fallback: 'Network error. Please try again.',
    }),
  update: (id: number, status: WithdrawStatus) =>
    call<{ withdraw: WithdrawDto; msg: string }>('/admin/withdraw/update', {
      method: 'PUT',
      body: { id, status },
      fallback: 'Network error. Please try again.',
    }),
  async summary(userId: number): Promise<WithdrawSummary> {
    const [balance, income, bonus, requested, accepted] = await Promise.all([
      call<BalanceResponse>(`/admin/withdraw/balance/${userId}`, { fallback: 'Error fetching Balance' }),
      call<IncomeResponse>(`/admin/withdraw/income/${userId}`, { fallback: 'Error fetching Income' }),
      call<TotalBonusResponse>(`/admin/bonus/total/${userId}`, { fallback: 'Error fetching Bonus total' }),
      call<WithdrawTotalResponse>(`/admin/withdraw/total-requested/${userId}`, {
        fallback: 'Error fetching Withdraw Total',
      }),
      call<WithdrawTotalResponse>(`/admin/withdraw/total-accepted/${userId}`, {
        fallback: 'Error fetching Withdraw Total',
      }),
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
