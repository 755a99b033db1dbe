import {
  ALL_USERS,
  type BalanceResponse,
  type ChartsResponse,
  type CounterUser,
  type FirstRunDto,
  type IncomeResponse,
  type MessageLogCount,
  type PhoneBlastCount,
  type ProxyUseCount,
  type SuccessFailCount,
  type TotalBonusResponse,
  type UsersActiveCount,
  type WhatsappCount,
} from '@wa/shared';
import { call, settingsApi } from '../../api/client';

/** The counters of §7 the dashboard reads; `userId` is a user id, or `all` on the admin dashboard. */
export const dashboardApi = {
  info: async () => (await settingsApi.get()).setting.info,
  whatsappCount: (userId: number) =>
    call<WhatsappCount>(`/admin/whatsapp/count/${userId}`, { fallback: 'Error fetching WhatsApp count' }),
  /** Every member's accounts (admin dashboard). */
  whatsappCountAll: () =>
    call<WhatsappCount>(`/admin/whatsapp/count/${ALL_USERS}`, { fallback: 'Error fetching WhatsApp count' }),
  messageLogCount: (userId: CounterUser) =>
    call<MessageLogCount>(`/admin/messagelog/count/${userId}`, { fallback: 'Error fetching Blast count' }),
  todayCount: (userId: CounterUser) =>
    call<SuccessFailCount>(`/admin/messagelog/today-count/${userId}`, { fallback: 'Error fetching Blast count' }),
  totalCount: (userId: CounterUser) =>
    call<SuccessFailCount>(`/admin/messagelog/total-count/${userId}`, { fallback: 'Error fetching Blast count' }),
  todayIncome: async (userId: CounterUser) =>
    (await call<IncomeResponse>(`/admin/messagelog/today-income/${userId}`, { fallback: 'Error fetching Income' }))
      .income,
  balance: async (userId: CounterUser) =>
    (await call<BalanceResponse>(`/admin/withdraw/balance/${userId}`, { fallback: 'Error fetching Balance' })).balance,
  totalBonus: async (userId: CounterUser) =>
    (await call<TotalBonusResponse>(`/admin/bonus/total/${userId}`, { fallback: 'Error fetching Bonus total' }))
      .totalBonus,
  usersActive: () => call<UsersActiveCount>('/admin/users/active', { fallback: 'Error fetching active members' }),
  proxyCount: () => call<ProxyUseCount>('/admin/proxy/count-use', { fallback: 'Error get Proxy count' }),
  /** the dashboards' charts (issue 11): a member's own, everybody's for admin and dev */
  charts: () => call<ChartsResponse>('/admin/report/charts', { fallback: 'Error fetching charts' }),
  /** the first-run checklist's figures (issue 20; admin and dev) */
  firstRun: () => call<FirstRunDto>('/admin/first-run', { fallback: 'Error fetching the first steps' }),
  phoneCount: () =>
    call<PhoneBlastCount>('/admin/phonenumber/count-blast', { fallback: 'Error fetching Phone Number count' }),
};
