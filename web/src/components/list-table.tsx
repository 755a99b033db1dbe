import { Alert } from './alert';
import { CardList, useNarrowScreen } from './card-list';
import { type Column, DataTable, Pagination } from './data-table';

/** What a paged list gives its table (useListPage, useLiveList). */
export interface TableList<T> {
  rows: T[];
  loading: boolean;
  page: number;
  totalPages: number;
  setPage(page: number): void;
}

/**
 * A list screen's table: the error above it, the rows ('Kosong' when none, §2), and the paging
 * under it. `rows` replaces the list's rows when the page filters them.
 */
export function ListTable<T extends { id: number }>({
  list,
  columns,
  error,
  rows = list.rows,
  rowClass,
  cards = false,
}: {
  list: TableList<T>;
  columns: Column<T>[];
  error: string | null;
  rows?: T[];
  rowClass?(row: T): string;
  /** below 768 px the rows are cards (CardList) rather than a table that scrolls sideways */
  cards?: boolean;
}) {
  const narrow = useNarrowScreen();
  return (
    <>
      {error && (
        <div className="mb-4">
          <Alert tone="error">{error}</Alert>
        </div>
      )}
      {cards && narrow ? (
        <CardList columns={columns} rows={rows} rowKey={(r) => r.id} loading={list.loading} rowClass={rowClass} />
      ) : (
        <DataTable columns={columns} rows={rows} rowKey={(r) => r.id} loading={list.loading} rowClass={rowClass} />
      )}
      <Pagination page={list.page} totalPages={list.totalPages} onPage={list.setPage} />
    </>
  );
}
