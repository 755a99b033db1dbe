import { type CounterUser, DASHBOARD, FIRST_RUN, REPORT } from '@wa/shared';
import { request, settingsApi } from '../../api/client';

/** The dashboard's calls: its figures, the banner text, the charts and the first-run checklist. */
export const dashboardApi = {
  /**
   * Every figure of a dashboard in one call (issue 23, in place of §7's five or six counters): the
   * member's own, or everybody's (`all`) on the admin and dev dashboard.
   */
  counters: (userId: CounterUser) =>
    request(DASHBOARD.counters, {
      params: { userId: String(userId) },
      fallback: 'Error fetching the dashboard figures',
    }),
  info: async () => (await settingsApi.get()).setting.info,
  /** the dashboards' charts (issue 11): a member's own, everybody's for admin and dev */
  charts: () => request(REPORT.charts, { fallback: 'Error fetching charts' }),
  /** the first-run checklist's figures (issue 20; admin and dev) */
  firstRun: () => request(FIRST_RUN.get, { fallback: 'Error fetching the first steps' }),
};
