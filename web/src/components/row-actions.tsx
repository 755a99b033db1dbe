import { Link } from 'react-router';
import type { RowDelete } from '../lib/use-row-delete';
import type { Column } from './data-table';
import { StatusBadge } from './status-badge';

/** A row's Edit link and Delete button, or 'Deleting...' while its delete is on its way (§4). */
export function RowActions({ deleting, editTo, onDelete }: { deleting: boolean; editTo?: string; onDelete(): void }) {
  if (deleting) return <span className="text-gray-500">Deleting...</span>;
  return (
    <div className="flex gap-2">
      {editTo && (
        <Link to={editTo} className="text-brand-500 hover:underline">
          Edit
        </Link>
      )}
      <button type="button" onClick={onDelete} className="text-red-500 hover:underline">
        Delete
      </button>
    </div>
  );
}

/**
 * The Action column of a catalogue list: Edit to `editTo(row)` when given, and Delete, which asks
 * `confirm` first when given, else deletes at once.
 */
export function actionColumn<T extends { id: number }>(
  rowDelete: RowDelete,
  { editTo, confirm }: { editTo?(row: T): string; confirm?(row: T): void } = {},
): Column<T> {
  return {
    header: 'Action',
    cell: (r) => (
      <RowActions
        deleting={rowDelete.isDeleting(r.id)}
        editTo={editTo?.(r)}
        onDelete={() => (confirm ? confirm(r) : void rowDelete.remove(r.id))}
      />
    ),
  };
}

/** The Status column: active green, 'in use' yellow, anything else red (§4). */
export function statusColumn<T extends { status: string }>(): Column<T> {
  return { header: 'Status', cell: (r) => <StatusBadge status={r.status} /> };
}
