import { formatRupiah, type LevelDto } from '@wa/shared';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiCallError } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { type Column, DataTable, Pagination } from '../../components/data-table';
import { PageBreadcrumb } from '../../components/page-breadcrumb';
import { useListPage } from '../../lib/use-list-page';
import { levelsApi } from './api';

/** /level (§2 level part): the levels with their fee and blast requirement. */
export function LevelsPage() {
  const list = useListPage(levelsApi.page);
  const [deleting, setDeleting] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const remove = async (id: number) => {
    setDeleting(id);
    try {
      const res = await levelsApi.remove(id);
      list.remove((r) => r.id === res.id);
    } catch (err) {
      setError(err instanceof ApiCallError ? err.message : 'Network error. Please try again.');
    } finally {
      setDeleting(null);
    }
  };
  const columns: Column<LevelDto>[] = [
    { header: 'Name', cell: (r) => <span className="font-medium text-gray-800 dark:text-white/90">{r.name}</span> },
    { header: 'Blast Fee', cell: (r) => formatRupiah(r.blast_fee) },
    { header: 'Minimal Blast', cell: (r) => r.requirement_blast.toLocaleString('id-ID') },
    {
      header: 'Action',
      cell: (r) =>
        deleting === r.id ? (
          <span className="text-gray-500">Deleting...</span>
        ) : (
          <div className="flex gap-2">
            <Link to={`/level/edit?id=${r.id}`} className="text-brand-500 hover:underline">
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
      <PageBreadcrumb title="Level" />
      <div className="mb-4">
        <Link to="/level/create">
          <Button size="sm">
            <Plus size={16} /> Tambah Level
          </Button>
        </Link>
      </div>
      {(list.error || error) && (
        <div className="mb-4">
          <Alert tone="error">{list.error ?? error}</Alert>
        </div>
      )}
      <DataTable columns={columns} rows={list.rows} rowKey={(r) => r.id} loading={list.loading} />
      <Pagination page={list.page} totalPages={list.totalPages} onPage={list.setPage} />
    </>
  );
}
