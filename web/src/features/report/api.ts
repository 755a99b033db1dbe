import type { MessageLogItem, MessageLogStatus, Paged, ReportResponse, UserDto, WhatsappDto } from '@wa/shared';
import { accountsApi } from '../../api/accounts';
import { call } from '../../api/client';

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

const qs = (q: Record<string, string | number | undefined>) =>
  Object.entries(q)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

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
    call<ReportResponse>(`/admin/report?${qs({ ...reportQs(f), page })}`, { fallback: 'Error fetching report' }),
  /** the export link: a plain GET the browser streams to disk (the auth cookie goes along) */
  exportUrl: (format: 'csv' | 'json', f: ReportFilter) => `/api/admin/report/export?${qs({ ...reportQs(f), format })}`,
  log: (page: number, f: ReportFilter & LogFilter) =>
    call<Paged<MessageLogItem>>(
      `/admin/messagelog/list-per-page?${qs({
        page,
        user_id: f.userId,
        whatsapp_id: f.whatsappId,
        status: f.status,
        search: f.search,
      })}`,
      { fallback: 'Error fetching message log' },
    ),
  /** every member (admin and dev; the member selects of Bonus and the report) */
  members: async (): Promise<Option[]> =>
    (
      await call<{ users: Pick<UserDto, 'id' | 'firstname' | 'lastname'>[] }>('/admin/users/members', {
        fallback: 'Error fetching user',
      })
    ).users.map((m) => ({ value: m.id, label: `${m.firstname} ${m.lastname}`.trim() })),
  /** every account (admin and dev) */
  allAccounts: async (): Promise<Option[]> =>
    (await accountsApi.all()).list.map((a) => ({ value: a.id, label: a.phonenumber ?? `#${a.id}`, userId: a.user_id })),
  /** a user's own accounts (a member) */
  ownAccounts: async (userId: number): Promise<Option[]> =>
    (
      await call<{ list: WhatsappDto[] }>(`/admin/whatsapp/list/${userId}`, {
        fallback: 'Error fetching WhatsApp list',
      })
    ).list.map((a) => ({ value: a.id, label: a.phonenumber ?? `#${a.id}`, userId: a.user_id })),
};
