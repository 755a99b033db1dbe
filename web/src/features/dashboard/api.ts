import {
  ALL_USERS,
  BONUS,
  type CounterUser,
  FIRST_RUN,
  MESSAGE_LOG,
  PHONE_NUMBERS,
  PROXIES,
  REPORT,
  USERS,
  WHATSAPP,
  WITHDRAW,
} from '@wa/shared';
import { request, settingsApi } from '../../api/client';

/** The path parameter of a counter: a user id, or `all`. */
const of = (userId: CounterUser | number) => ({ params: { userId: String(userId) } });

/** The counters of §7 the dashboard reads; `userId` is a user id, or `all` on the admin dashboard. */
export const dashboardApi = {
  info: async () => (await settingsApi.get()).setting.info,
  whatsappCount: (userId: number) =>
    request(WHATSAPP.count, { ...of(userId), fallback: 'Error fetching WhatsApp count' }),
  /** Every member's accounts (admin dashboard). */
  whatsappCountAll: () => request(WHATSAPP.count, { ...of(ALL_USERS), fallback: 'Error fetching WhatsApp count' }),
  messageLogCount: (userId: CounterUser) =>
    request(MESSAGE_LOG.count, { ...of(userId), fallback: 'Error fetching Blast count' }),
  todayCount: (userId: CounterUser) =>
    request(MESSAGE_LOG.todayCount, { ...of(userId), fallback: 'Error fetching Blast count' }),
  totalCount: (userId: CounterUser) =>
    request(MESSAGE_LOG.totalCount, { ...of(userId), fallback: 'Error fetching Blast count' }),
  todayIncome: async (userId: CounterUser) =>
    (await request(MESSAGE_LOG.todayIncome, { ...of(userId), fallback: 'Error fetching Income' })).income,
  balance: async (userId: CounterUser) =>
    (await request(WITHDRAW.balance, { ...of(userId), fallback: 'Error fetching Balance' })).balance,
  totalBonus: async (userId: CounterUser) =>
    (await request(BONUS.total, { ...of(userId), fallback: 'Error fetching Bonus total' })).totalBonus,
  usersActive: () => request(USERS.active, { fallback: 'Error fetching active members' }),
  proxyCount: () => request(PROXIES.countUse, { fallback: 'Error get Proxy count' }),
  /** the dashboards' charts (issue 11): a member's own, everybody's for admin and dev */
  charts: () => request(REPORT.charts, { fallback: 'Error fetching charts' }),
  /** the first-run checklist's figures (issue 20; admin and dev) */
  firstRun: () => request(FIRST_RUN.get, { fallback: 'Error fetching the first steps' }),
  phoneCount: () => request(PHONE_NUMBERS.countBlast, { fallback: 'Error fetching Phone Number count' }),
};
