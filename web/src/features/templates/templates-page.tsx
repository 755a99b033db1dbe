import { IMAGE_EXTENSIONS, type TemplateDto } from '@wa/shared';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiCallError } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { type Column, DataTable, Pagination } from '../../components/data-table';
import { PageBreadcrumb } from '../../components/page-breadcrumb';
import { StatusBadge } from '../../components/status-badge';
import { streamDownload } from '../../lib/download';
import { useListPage } from '../../lib/use-list-page';
import { templatesApi } from './api';

/** §2: jpg, jpeg, png, gif, webp, bmp and svg preview as images; anything else is a link. */
export function MediaPreview({ url }: { url: string | null }) {
  if (!url) return <span className="text-gray-400">-</span>;
  const ext = url.split('?')[0].split('.').pop()?.toLowerCase() ?? '';
  if ((IMAGE_EXTENSIONS as readonly string[]).includes(ext)) {
    return (
      <img
        src={url}
        alt="Media"
        className="h-14 w-14 rounded-lg border border-gray-200 object-cover dark:border-gray-800"
      />
    );
  }
  return (
    <a href={url} target="_blank" rel="noreferrer" className="text-brand-500 hover:underline">
      View Media
    </a>
  );
}

/** /message 'Template Pesan Blaster' (§2 Message templates). */
export function TemplatesPage() {
  const list = useListPage(templatesApi.page);
  const [deleting, setDeleting] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const remove = async (id: number) => {
    setDeleting(id);
    try {
      const res = await templatesApi.remove(id);
      list.remove((r) => r.id === res.id);
    } catch (err) {
      setError(err instanceof ApiCallError ? err.message : 'Network error. Please try again.');
    } finally {
      setDeleting(null);
    }
  };
  const columns: Column<TemplateDto>[] = [
    { header: 'Media', cell: (r) => <MediaPreview url={r.media} /> },
    {
      header: 'Caption',
      className: 'max-w-md',
      cell: (r) => (
        <p className="line-clamp-3 whitespace-pre-line text-gray-700 dark:text-gray-300">{r.text_wa || '-'}</p>
      ),
    },
    { header: 'Button', cell: (r) => (r.button.length ? r.button.map((b) => b.title).join(', ') : '-') },
    { header: 'Digunakan', cell: (r) => `${r.count_use} kali` },
    { header: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
    {
      header: 'Action',
      cell: (r) =>
        deleting === r.id ? (
          <span className="text-gray-500">Deleting...</span>
        ) : (
          <div className="flex gap-2">
            <Link to={`/message/edit?id=${r.id}`} className="text-brand-500 hover:underline">
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
      <PageBreadcrumb title="Template Pesan Blaster" />
      <div className="mb-4 flex flex-wrap gap-2">
        <Link to="/message/create">
          <Button size="sm">
            <Plus size={16} /> Tambah
          </Button>
        </Link>
        <Button
          size="sm"
          variant="outline"
          onClick={() =>
            list.total === 0 ? window.alert('No messages to export.') : streamDownload('/api/admin/message/export')
          }
        >
          Export JSON
        </Button>
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
