import { formatRupiah, MESSAGE_LOG_STATUSES, type MessageLogItem, type MessageLogStatus } from '@wa/shared';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { Badge } from '../../components/badge';
import type { Column } from '../../components/data-table';
import { FilterSelect } from '../../components/filter-select';
import { ListTable } from '../../components/list-table';
import { SearchFields } from '../../components/search-fields';
import { latestParams, useDelayedSearch, withParam } from '../../lib/use-delayed-search';
import { useListPage } from '../../lib/use-list-page';
import { reportApi } from './api';

/** The log statuses in the words of the screen, and the colour of their badge. */
export const LOG_STATUS: Record<
  MessageLogStatus,
  { label: string; tone: 'neutral' | 'brand' | 'success' | 'error' | 'warning' }
> = {
  pending: { label: 'Menunggu', tone: 'neutral' },
  sent: { label: 'Dikirim', tone: 'brand' },
  delivered: { label: 'Terkirim', tone: 'success' },
  read: { label: 'Dibaca', tone: 'success' },
  failed: { label: 'Gagal', tone: 'error' },
  unknown: { label: 'Tidak diketahui', tone: 'warning' },
};
const STATUS_OPTIONS = MESSAGE_LOG_STATUSES.map((s) => ({ value: s, label: LOG_STATUS[s].label }));
const isStatus = (s: string): s is MessageLogStatus => (MESSAGE_LOG_STATUSES as readonly string[]).includes(s);

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('id-ID', { dateStyle: 'short', timeStyle: 'short' }) : '-';

const columns = (showMember: boolean): Column<MessageLogItem>[] => [
  { header: 'Target', cell: (r) => <span className="font-medium text-gray-800 dark:text-white/90">{r.target}</span> },
  {
    header: 'Akun',
    cell: (r) => (
      <>
        <span>{r.phonenumber ?? '-'}</span>
        {showMember && <span className="block text-xs text-gray-500 dark:text-gray-400">{r.name}</span>}
      </>
    ),
  },
  {
    header: 'Template',
    cell: (r) => (r.template_id === null ? '-' : (r.template_text ?? `#${r.template_id}`)),
  },
  {
    header: 'Status',
    cell: (r) => (
      <span data-status={r.status} title={r.error ?? undefined}>
        <Badge tone={LOG_STATUS[r.status]?.tone ?? 'neutral'}>{LOG_STATUS[r.status]?.label ?? r.status}</Badge>
      </span>
    ),
  },
  { header: 'Dikirim', cell: (r) => when(r.sent_at), className: 'whitespace-nowrap' },
  { header: 'Terkirim', cell: (r) => when(r.delivered_at), className: 'whitespace-nowrap' },
  { header: 'Dibaca', cell: (r) => when(r.read_at), className: 'whitespace-nowrap' },
  {
    header: 'Fee',
    className: 'whitespace-nowrap text-end',
    cell: (r) => (
      <>
        {formatRupiah(r.fee)}
        {r.fee_due > 0 && (
          <span className="block text-xs text-gray-500 dark:text-gray-400" title="Dibayar saat terkirim ke penerima">
            ditahan {formatRupiah(r.fee_due)}
          </span>
        )}
      </>
    ),
  },
];

/**
 * The 'Message log' under the report: one row per message, newest first, paged in ?lpage= (the
 * report has ?page=), filtered by status (?status=) and the start of the target number (?q=), and
 * by the report's member and account.
 */
export function MessageLogSection({
  userId,
  whatsappId,
  showMember,
}: {
  userId?: number;
  whatsappId?: number;
  showMember: boolean;
}) {
  const [params, setParams] = useSearchParams();
  const rawStatus = params.get('status') ?? '';
  const status = isStatus(rawStatus) ? rawStatus : undefined;
  const q = params.get('q') ?? '';
  const fetchPage = useCallback(
    (page: number, search: string) => reportApi.log(page, { userId, whatsappId, status, search: search || undefined }),
    [userId, whatsappId, status],
  );
  const list = useListPage(fetchPage, q, 'lpage');
  /** a new filter starts the log on its first page */
  const setFilter = (key: string, value: string) => {
    const next = withParam(latestParams(), key, value, false);
    next.delete('lpage');
    setParams(next);
  };
  const search = useDelayedSearch(q, (text) => setFilter('q', text));

  return (
    <section aria-labelledby="message-log-title" className="mt-8" data-testid="message-log">
      <h3 id="message-log-title" className="mb-4 text-lg font-semibold text-gray-800 dark:text-white/90">
        Message log
      </h3>
      <div className="mb-4 flex flex-wrap items-end gap-2">
        <form onSubmit={search.submit} className="flex w-full flex-wrap items-center gap-2 sm:w-auto">
          <SearchFields search={search} label="Cari nomor target" className="min-w-0 flex-1 sm:w-64 sm:flex-none" />
        </form>
        <FilterSelect
          id="log-status-filter"
          value={status ?? ''}
          options={STATUS_OPTIONS}
          onChange={(v) => setFilter('status', v)}
          className="w-full sm:ml-auto sm:w-56"
        />
      </div>
      <ListTable list={list} columns={columns(showMember)} error={list.error} />
      {list.total > 0 && (
        <p className="mt-2 text-xs text-gray-500 dark:text-gray-400" data-testid="message-log-total">
          {list.total.toLocaleString('id-ID')} pesan
        </p>
      )}
    </section>
  );
}
