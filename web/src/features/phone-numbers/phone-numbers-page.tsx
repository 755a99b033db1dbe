import type { PhoneNumberDto } from '@wa/shared';
import { Plus } from 'lucide-react';
import { useCallback, useState } from 'react';
import { Link } from 'react-router';
import { ApiCallError } from '../../api/client';
import { useLiveEvents } from '../../api/use-live-events';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { type Column, DataTable, Pagination } from '../../components/data-table';
import { LiveDot } from '../../components/live-dot';
import { PageBreadcrumb } from '../../components/page-breadcrumb';
import { RefreshButton } from '../../components/refresh-button';
import { StatusBadge } from '../../components/status-badge';
import { streamDownload } from '../../lib/download';
import { useListPage } from '../../lib/use-list-page';
import { useRowTimers } from '../../lib/use-row-timers';
import { phoneNumbersApi } from './api';
import { receiverChange } from './live-receiver';

/** §9: a changed count is highlighted for 1 s */
const FLASH_MS = 1000;
const FLASH = {
  success: 'bg-green-100 font-semibold text-green-700 dark:bg-green-500/20 dark:text-green-400',
  fail: 'bg-red-100 font-semibold text-red-700 dark:bg-red-500/20 dark:text-red-400',
};

function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString('id-ID') : '-';
}

/** /phonenumber (§2 Phone numbers): the target list with export, sync and delete. */
export function PhoneNumbersPage() {
  const list = useListPage(phoneNumbersApi.page);
  const [deleting, setDeleting] = useState<Set<number>>(new Set());
  const [message, setMessage] = useState<string | null>(null);
  // live counts from the blasts (§4 Phone number rows): the row's count moves and flashes for 1 s
  const [flash, setFlash] = useState<Map<number, 'success' | 'fail'>>(new Map());
  const timers = useRowTimers<number>();
  const { update } = list;
  const onLive = useCallback(
    (m: Parameters<typeof receiverChange>[0]) => {
      const change = receiverChange(m);
      if (!change) return;
      update(
        (r) => r.id === change.id,
        (r) => ({ ...r, ...change.patch }),
      );
      const kind = change.flash;
      if (!kind) return;
      setFlash((f) => new Map(f).set(change.id, kind));
      timers.restart(
        change.id,
        () =>
          setFlash((f) => {
            const n = new Map(f);
            n.delete(change.id);
            return n;
          }),
        FLASH_MS,
      );
    },
    [update, timers],
  );
  const live = useLiveEvents(onLive);

  const remove = async (id: number) => {
    setDeleting((d) => new Set(d).add(id));
    try {
      const res = await phoneNumbersApi.remove(id);
      list.remove((r) => r.id === res.id);
    } catch (err) {
      setMessage(err instanceof ApiCallError ? err.message : 'Network error. Please try again.');
    } finally {
      setDeleting((d) => {
        const n = new Set(d);
        n.delete(id);
        return n;
      });
    }
  };
  const exportAs = (format: 'csv' | 'json') => {
    if (list.total === 0) {
      window.alert('No phone numbers to export.');
      return;
    }
    streamDownload(`/api/admin/phonenumber/export?format=${format}`);
  };

  const columns: Column<PhoneNumberDto>[] = [
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
    { header: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
    {
      header: 'Jumlah Berhasil',
      cell: (r) => (
        <span
          data-testid="pn-success"
          className={`rounded px-1.5 py-0.5 transition-colors ${flash.get(r.id) === 'success' ? FLASH.success : ''}`}
        >
          {r.count_success}
        </span>
      ),
    },
    {
      header: 'Jumlah Gagal',
      cell: (r) => (
        <span
          data-testid="pn-fail"
          className={`rounded px-1.5 py-0.5 transition-colors ${flash.get(r.id) === 'fail' ? FLASH.fail : ''}`}
        >
          {r.count_fail}
        </span>
      ),
    },
    { header: 'Terakhir Terkirim', cell: (r) => when(r.last_sent) },
    {
      header: 'Action',
      cell: (r) =>
        deleting.has(r.id) ? (
          <span className="text-gray-500">Deleting...</span>
        ) : (
          <div className="flex gap-2">
            <Link to={`/phonenumber/edit?id=${r.id}`} className="text-brand-500 hover:underline">
              Edit
            </Link>
            <button type="button" onClick={() => remove(r.id)} className="text-red-500 hover:underline">
              Delete
            </button>
          </div>
        ),
    },
  ];

  return (
    <>
      <PageBreadcrumb title="Daftar Phone Number" />
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <Link to="/phonenumber/create">
          <Button size="sm">
            <Plus size={16} /> Tambah
          </Button>
        </Link>
        <Button size="sm" variant="outline" onClick={() => exportAs('csv')}>
          Export CSV
        </Button>
        <Button size="sm" variant="outline" onClick={() => exportAs('json')}>
          Export JSON
        </Button>
        <RefreshButton syncing={list.syncing} onClick={list.refresh} label="Sync" />
        <span className="ml-auto flex items-center gap-3 text-sm text-gray-500 dark:text-gray-400">
          <LiveDot connected={live.connected} />
          {list.total} nomor
        </span>
      </div>
      {(list.error || message) && (
        <div className="mb-4">
          <Alert tone="error">{list.error ?? message}</Alert>
        </div>
      )}
      <DataTable columns={columns} rows={list.rows} rowKey={(r) => r.id} loading={list.loading} />
      <Pagination page={list.page} totalPages={list.totalPages} onPage={list.setPage} />
    </>
  );
}
