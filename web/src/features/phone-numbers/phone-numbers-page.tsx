import { PHONE_STATUSES, type PhoneStatus } from '@wa/shared';
import { AddLink } from '../../components/add-link';
import type { Column } from '../../components/data-table';
import { ExportButtons } from '../../components/export-buttons';
import { FilterSelect } from '../../components/filter-select';
import { FlashCount } from '../../components/flash-count';
import { ListTable } from '../../components/list-table';
import { LiveDot } from '../../components/live-dot';
import { PageBreadcrumb } from '../../components/page-breadcrumb';
import { RefreshButton } from '../../components/refresh-button';
import { actionColumn, statusColumn } from '../../components/row-actions';
import { useLiveList } from '../../lib/use-live-list';
import { useRowDelete } from '../../lib/use-row-delete';
import { phoneNumbersApi } from './api';
import { type PhoneRow, receiverChange, toPhoneRow } from './live-receiver';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('id-ID') : '-');
// the list has no search box: ?s= holds the status filter (opted-out numbers among them)
const statusOf = (s: string): PhoneStatus | undefined =>
  (PHONE_STATUSES as readonly string[]).includes(s) ? (s as PhoneStatus) : undefined;
const fetchPage = (page: number, s: string) => phoneNumbersApi.page(page, '', statusOf(s));
const STATUS_OPTIONS = [
  { value: 'active', label: 'Active' },
  { value: 'nonactive', label: 'Nonactive' },
  { value: 'optout', label: 'Opt-out' },
];
const rowId = (r: PhoneRow) => r.id;

/**
 * /phonenumber (§2 Phone numbers): the target list with export, sync and delete; the counts of a
 * number follow the blasts live and flash for 1 s (§4 Phone number rows).
 */
export function PhoneNumbersPage() {
  const list = useLiveList({ fetchPage, toRow: toPhoneRow, liveKey: rowId, liveChange: receiverChange });
  const rowDelete = useRowDelete(phoneNumbersApi.remove, list.removeRow);

  const columns: Column<PhoneRow>[] = [
    {
      header: 'Phone Number',
      cell: (r) => (
        <span className="font-medium text-gray-800 dark:text-white/90">
          {r.number}
          {r.in_use === 1 && <span className="ml-1 text-xs text-yellow-600"> (In Use)</span>}
        </span>
      ),
    },
    { header: 'Name', cell: (r) => r.name || '-' },
    statusColumn(),
    {
      header: 'Jumlah Berhasil',
      cell: (r) => <FlashCount value={r.count_success} flash={r.successUpdated} tone="success" testId="pn-success" />,
    },
    {
      header: 'Jumlah Gagal',
      cell: (r) => <FlashCount value={r.count_fail} flash={r.failUpdated} tone="fail" testId="pn-fail" />,
    },
    { header: 'Terakhir Terkirim', cell: (r) => when(r.last_sent) },
    actionColumn(rowDelete, { editTo: (r) => `/phonenumber/edit?id=${r.id}` }),
  ];

  return (
    <>
      <PageBreadcrumb title="Daftar Phone Number" />
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <AddLink to="/phonenumber/create" />
        <ExportButtons total={list.total} empty="No phone numbers to export." url={phoneNumbersApi.exportUrl} />
        <RefreshButton syncing={list.syncing} onClick={list.refresh} label="Sync" />
        <FilterSelect
          id="pn-status-filter"
          value={statusOf(list.s) ?? ''}
          options={STATUS_OPTIONS}
          onChange={(v) => list.setParam('s', v)}
          className="w-full sm:w-44"
        />
        <span className="ml-auto flex items-center gap-3 text-sm text-gray-500 dark:text-gray-400">
          <LiveDot connected={list.connected} />
          {list.total} nomor
        </span>
      </div>
      <ListTable list={list} columns={columns} error={list.error ?? rowDelete.error} />
    </>
  );
}
