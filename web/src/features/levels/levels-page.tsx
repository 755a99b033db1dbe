import { formatRupiah, type LevelDto } from '@wa/shared';
import { AddLink } from '../../components/add-link';
import type { Column } from '../../components/data-table';
import { ListTable } from '../../components/list-table';
import { PageBreadcrumb } from '../../components/page-breadcrumb';
import { actionColumn } from '../../components/row-actions';
import { useListPage } from '../../lib/use-list-page';
import { useRowDelete } from '../../lib/use-row-delete';
import { levelsApi } from './api';

/** /level (§2 level part): the levels with their fee and blast requirement. */
export function LevelsPage() {
  const list = useListPage(levelsApi.page);
  const rowDelete = useRowDelete(levelsApi.remove, (id) => list.remove((r) => r.id === id));
  const columns: Column<LevelDto>[] = [
    { header: 'Name', cell: (r) => <span className="font-medium text-gray-800 dark:text-white/90">{r.name}</span> },
    { header: 'Blast Fee', cell: (r) => formatRupiah(r.blast_fee) },
    { header: 'Minimal Blast', cell: (r) => r.requirement_blast.toLocaleString('id-ID') },
    actionColumn(rowDelete, { editTo: (r) => `/level/edit?id=${r.id}` }),
  ];
  return (
    <>
      <PageBreadcrumb title="Level" />
      <div className="mb-4">
        <AddLink to="/level/create" label="Tambah Level" />
      </div>
      <ListTable list={list} columns={columns} error={list.error ?? rowDelete.error} />
    </>
  );
}
