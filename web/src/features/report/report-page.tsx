import { formatRupiah, normalizeRole, type ReportFigures, type ReportRow } from '@wa/shared';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '../../components/alert';
import { type Column, DataTable, Pagination } from '../../components/data-table';
import { ExportButtons } from '../../components/export-buttons';
import { PageBreadcrumb } from '../../components/page-breadcrumb';
import { RefreshButton } from '../../components/refresh-button';
import { latestParams, withParam } from '../../lib/use-delayed-search';
import { useListPage } from '../../lib/use-list-page';
import { useAuth } from '../auth/auth-context';
import { type ReportFilter, reportApi } from './api';
import { MessageLogSection } from './message-log-section';
import { type FilterValues, ReportFilters } from './report-filters';
import { useReportOptions } from './use-report-options';

const count = (n: number) => n.toLocaleString('id-ID');
const day = (date: string) =>
  new Date(`${date}T00:00:00`).toLocaleDateString('id-ID', { day: 'numeric', month: 'short', year: 'numeric' });
const positiveId = (v: string | null) => {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const dateParam = (v: string | null) => (v && DATE.test(v) ? v : undefined);

/** The figure columns, shared by the rows and the totals. */
const FIGURES: { key: keyof ReportFigures; header: string; money?: boolean }[] = [
  { key: 'sent', header: 'Dikirim' },
  { key: 'delivered', header: 'Terkirim' },
  { key: 'read', header: 'Dibaca' },
  { key: 'failed', header: 'Gagal' },
  { key: 'optout', header: 'Opt-out' },
  { key: 'income', header: 'Pendapatan', money: true },
];
const figure = (f: { key: keyof ReportFigures; money?: boolean }, v: ReportFigures) =>
  f.money ? formatRupiah(v[f.key]) : count(v[f.key]);

function columns(showMember: boolean): Column<ReportRow>[] {
  return [
    { header: 'Tanggal', cell: (r) => day(r.date), className: 'whitespace-nowrap' },
    {
      header: 'Akun',
      cell: (r) => r.phonenumber ?? <span className="text-gray-400">(akun dihapus)</span>,
    },
    ...(showMember ? [{ header: 'Member', cell: (r: ReportRow) => r.name }] : []),
    ...FIGURES.map((f) => ({
      header: f.header,
      className: 'whitespace-nowrap text-end',
      cell: (r: ReportRow) => <span data-figure={f.key}>{figure(f, r)}</span>,
    })),
  ];
}

/**
 * /report 'Laporan' (issue 11): per day and account what was sent, delivered, read, failed, opted
 * out and earned, with the totals of the whole filter, Export CSV/JSON, and the message log under
 * it. Admin, dev and staff see everybody's and may pick a member; a member sees their own (the
 * server holds them to it). Filters live in the query: ?from&to&user&wa&page.
 */
export function ReportPage() {
  const { user } = useAuth();
  const role = normalizeRole(user?.role) ?? 'member';
  const member = role === 'member';
  const [params, setParams] = useSearchParams();
  const from = dateParam(params.get('from'));
  const to = dateParam(params.get('to'));
  const userId = member ? undefined : positiveId(params.get('user'));
  const whatsappId = positiveId(params.get('wa'));

  const fetchPage = useCallback(
    (page: number) => reportApi.page(page, { from, to, userId, whatsappId }),
    [from, to, userId, whatsappId],
  );
  const list = useListPage(fetchPage);
  const meta = list.response?.meta;
  const options = useReportOptions(role, user?.id ?? 0, list.rows);

  // the days the server used (the last 7 by default): shown in the inputs and sent with an export
  const shown: FilterValues = { from: from ?? meta?.from ?? '', to: to ?? meta?.to ?? '', userId, whatsappId };
  const exported: ReportFilter = { ...shown, from: shown.from || undefined, to: shown.to || undefined };
  // built on the query as it is now, not as last drawn: two quick changes both stay
  const change = (patch: Partial<FilterValues>) => {
    let next = latestParams();
    const keys: [keyof FilterValues, string][] = [
      ['from', 'from'],
      ['to', 'to'],
      ['userId', 'user'],
      ['whatsappId', 'wa'],
    ];
    for (const [key, param] of keys) {
      if (key in patch) next = withParam(next, param, patch[key] === undefined ? '' : String(patch[key]), true);
    }
    next.delete('lpage');
    setParams(next);
  };

  const totals = list.response?.totals;
  const cols = columns(!member);
  // the totals row: 'Total' under the date, nothing under account and member, then each figure
  const footer = totals && [
    'Total',
    ...cols.slice(1, -FIGURES.length).map(() => null),
    ...FIGURES.map((f) => (
      <span key={f.key} data-total={f.key}>
        {figure(f, totals)}
      </span>
    )),
  ];

  return (
    <>
      <PageBreadcrumb title="Laporan" />
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <ExportButtons
          total={list.total}
          empty="No messages to export."
          url={(format) => reportApi.exportUrl(format, exported)}
        />
        <RefreshButton syncing={list.syncing} onClick={list.refresh} />
      </div>
      <ReportFilters
        values={shown}
        members={member ? 'hidden' : options.members}
        accounts={options.accounts}
        onChange={change}
      />
      {options.error && (
        <div className="mb-4">
          <Alert tone="error">{options.error}</Alert>
        </div>
      )}
      {list.error && (
        <div className="mb-4">
          <Alert tone="error">{list.error}</Alert>
        </div>
      )}
      <div data-testid="report-table">
        <DataTable
          columns={cols}
          rows={list.rows}
          rowKey={(r) => `${r.date}-${r.whatsapp_id}`}
          loading={list.loading}
          footer={footer}
        />
      </div>
      <Pagination page={list.page} totalPages={list.totalPages} onPage={list.setPage} />
      <MessageLogSection userId={userId} whatsappId={whatsappId} showMember={!member} />
    </>
  );
}
