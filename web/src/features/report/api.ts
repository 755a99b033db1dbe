import { MESSAGE_LOG, type MessageLogStatus, REPORT, USERS, WHATSAPP } from '@wa/shared';
import { accountsApi } from '../../api/accounts';
import { request, urlOf } from '../../api/client';

/** The report's filters as the screen keeps them in its query (all optional). */
export interface ReportFilter {
  from?: string;
  to?: string;
  userId?: number;
  whatsappId?: number;
}

/** The message log's own filters, on top of the report's member and account. */
export interface LogFilter {
  status?: MessageLogStatus;
  search?: string;
}

const reportQs = (f: ReportFilter) => ({ from: f.from, to: f.to, user_id: f.userId, whatsapp_id: f.whatsappId });

/** An option of the member and account selects. */
export interface Option {
  value: number;
  label: string;
  /** an account's owner (the account select narrows to the member chosen) */
  userId?: number;
}

/** Issue 11: /api/admin/report, its export, and the message log. */
export const reportApi = {
  page: (page: number, f: ReportFilter) =>
    request(REPORT.page, { query: { ...reportQs(f), page }, fallback: 'Error fetching report' }),
  /** the export link: a plain GET the browser streams to disk (the auth cookie goes along) */
  exportUrl: (format: 'csv' | 'json', f: ReportFilter) =>
    `/api${urlOf(REPORT.export, { query: { ...reportQs(f), format } })}`,
  log: (page: number, f: ReportFilter & LogFilter) =>
    request(MESSAGE_LOG.list, {
      query: { page, user_id: f.userId, whatsapp_id: f.whatsappId, status: f.status, search: f.search },
      fallback: 'Error fetching message log',
    }),
  /** every member (admin and dev; the member selects of Bonus and the report) */
  members: async (): Promise<Option[]> =>
    (await request(USERS.members, { fallback: 'Error fetching user' })).users.map((m) => ({
      value: m.id,
      label: `${m.firstname} ${m.lastname}`.trim(),
    })),
  /** every account (admin and dev) */
  allAccounts: async (): Promise<Option[]> =>
    (await accountsApi.all()).list.map((a) => ({ value: a.id, label: a.phonenumber ?? `#${a.id}`, userId: a.user_id })),
  /** a user's own accounts (a member) */
  ownAccounts: async (userId: number): Promise<Option[]> =>
    (await request(WHATSAPP.listForUser, { params: { userId }, fallback: 'Error fetching WhatsApp list' })).list.map(
      (a) => ({ value: a.id, label: a.phonenumber ?? `#${a.id}`, userId: a.user_id }),
    ),
};
