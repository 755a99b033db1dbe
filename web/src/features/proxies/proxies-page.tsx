import type { ProxyDto } from '@wa/shared';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiCallError } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { type Column, DataTable, Pagination } from '../../components/data-table';
import { PageBreadcrumb } from '../../components/page-breadcrumb';
import { RefreshButton } from '../../components/refresh-button';
import { StatusBadge } from '../../components/status-badge';
import { streamDownload } from '../../lib/download';
import { useListPage } from '../../lib/use-list-page';
import { proxiesApi } from './api';

/** /proxy (§2 Proxies): the pool with use counts, export, refresh, edit and delete. */
export function ProxiesPage() {
  const list = useListPage(proxiesApi.page);
  const [deleting, setDeleting] = useState<Set<number>>(new Set());
  const [message, setMessage] = useState<string | null>(null);

  const remove = async (id: number) => {
    setDeleting((d) => new Set(d).add(id));
    try {
      // §4: the row goes by the id the server returns
      const res = await proxiesApi.remove(id);
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
      window.alert('No proxies to export.');
      return;
    }
    streamDownload(`/api/admin/proxy/export?format=${format}`);
  };

  const columns: Column<ProxyDto>[] = [
    {
      header: 'Proxy',
      cell: (r) => <span className="font-medium whitespace-nowrap text-gray-800 dark:text-white/90">{r.value}</span>,
    },
    { header: 'Digunakan', cell: (r) => `${r.count_use} kali` },
    { header: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
    {
      header: 'Action',
      cell: (r) =>
        deleting.has(r.id) ? (
          <span className="text-gray-500">Deleting...</span>
        ) : (
          <div className="flex gap-2">
            <Link to={`/proxy/edit?id=${r.id}`} className="text-brand-500 hover:underline">
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
      <PageBreadcrumb title="Proxy" />
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <Link to="/proxy/create">
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
        <RefreshButton syncing={list.syncing} onClick={list.refresh} />
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
