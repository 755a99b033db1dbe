import { counterUserParam, dashboardCounters } from '../contract/counters';
import { routes } from './define';

/**
 * /api/admin/dashboard (issue 23): a dashboard's figures in one call, where it made five or six.
 * The counter routes of §7 stay, each with the same figure.
 */
export const DASHBOARD = routes('dashboard', '/admin/dashboard', {
  counters: {
    method: 'get',
    path: '/counters/{userId}',
    summary:
      "Every figure of a dashboard in one answer: a user's own (the member dashboard: accounts, messages, today's income, balance, bonus total), or with `all` everybody's (the admin and dev dashboard: proxies, target numbers, accounts, active members, messages today and in total)",
    access: 'counters.read',
    params: { userId: counterUserParam },
    response: dashboardCounters,
  },
});
