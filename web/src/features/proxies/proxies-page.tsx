import type { ProxyDto } from '@wa/shared';
import { AddLink } from '../../components/add-link';
import type { Column } from '../../components/data-table';
import { ExportButtons } from '../../components/export-buttons';
import { ListTable } from '../../components/list-table';
import { PageBreadcrumb } from '../../components/page-breadcrumb';
import { RefreshButton } from '../../components/refresh-button';
import { actionColumn, statusColumn } from '../../components/row-actions';
import { useListPage } from '../../lib/use-list-page';
import { useRowDelete } from '../../lib/use-row-delete';
import { proxiesApi } from './api';
import { checkColumn } from './proxy-check-cell';

/** /proxy (§2 Proxies): the pool with use counts, export, refresh, edit and delete. */
export function ProxiesPage() {
  const list = useListPage(proxiesApi.page);
  // §4: the row goes by the id the server returns
  const rowDelete = useRowDelete(proxiesApi.remove, (id) => list.remove((r) => r.id === id));

  const columns: Column<ProxyDto>[] = [
    {
      header: 'Proxy',
      cell: (r) => <span className="font-medium whitespace-nowrap text-gray-800 dark:text-white/90">{r.value}</span>,
    },
    { header: 'Digunakan', cell: (r) => `${r.count_use} kali` },
    statusColumn(),
    checkColumn(),
    actionColumn(rowDelete, { editTo: (r) => `/proxy/edit?id=${r.id}` }),
  ];

  return (
    <>
      <PageBreadcrumb title="Proxy" />
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <AddLink to="/proxy/create" />
        <ExportButtons total={list.total} empty="No proxies to export." url={proxiesApi.exportUrl} />
        <RefreshButton syncing={list.syncing} onClick={list.refresh} />
      </div>
      <ListTable list={list} columns={columns} error={list.error ?? rowDelete.error} />
    </>
  );
}
