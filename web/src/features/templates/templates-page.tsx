import { IMAGE_EXTENSIONS, type TemplateDto } from '@wa/shared';
import { AddLink } from '../../components/add-link';
import type { Column } from '../../components/data-table';
import { ExportButtons } from '../../components/export-buttons';
import { ListTable } from '../../components/list-table';
import { PageBreadcrumb } from '../../components/page-breadcrumb';
import { actionColumn, statusColumn } from '../../components/row-actions';
import { useListPage } from '../../lib/use-list-page';
import { useRowDelete } from '../../lib/use-row-delete';
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
  const rowDelete = useRowDelete(templatesApi.remove, (id) => list.remove((r) => r.id === id));
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
    statusColumn(),
    actionColumn(rowDelete, { editTo: (r) => `/message/edit?id=${r.id}` }),
  ];
  return (
    <>
      <PageBreadcrumb title="Template Pesan Blaster" />
      <div className="mb-4 flex flex-wrap gap-2">
        <AddLink to="/message/create" />
        <ExportButtons
          total={list.total}
          empty="No messages to export."
          url={templatesApi.exportUrl}
          formats={['json']}
        />
      </div>
      <ListTable list={list} columns={columns} error={list.error ?? rowDelete.error} />
    </>
  );
}
