import { Fragment, type ReactNode } from 'react';

export interface Column<T> {
  header: ReactNode;
  cell(row: T): ReactNode;
  className?: string;
  /**
   * where the cell goes when a narrow screen shows the rows as cards (CardList): 'title' at the top
   * without its header, 'wide' across the card under its header, 'actions' across the card's foot
   * without its header; otherwise in the card's grid under its header
   */
  card?: 'title' | 'wide' | 'actions';
}

/** The one table: header, rows, and 'Kosong' when there is nothing (§2). */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  loading,
  rowClass,
  expanded,
  footer,
}: {
  columns: Column<T>[];
  rows: T[];
  rowKey(row: T): string | number;
  loading?: boolean;
  rowClass?(row: T): string;
  /** a detail line under a row, across every column (null: none for this row) */
  expanded?(row: T): ReactNode;
  /** a closing row (totals), one cell per column; shown only when there are rows */
  footer?: ReactNode[];
}) {
  return (
    <div className="overflow-hidden rounded-xl border border-gray-200 bg-white dark:border-white/[0.05] dark:bg-white/[0.03]">
      <div className="max-w-full overflow-x-auto">
        <table className="min-w-full text-sm">
          <thead className="border-b border-gray-100 dark:border-white/[0.05]">
            <tr>
              {columns.map((c, i) => (
                <th
                  // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed per table
                  key={i}
                  className={`px-4 py-3 text-start text-xs font-medium whitespace-nowrap text-gray-500 dark:text-gray-400 ${c.className ?? ''}`}
                >
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100 dark:divide-white/[0.05]">
            {rows.length === 0 ? (
              <tr>
                <td colSpan={columns.length} className="px-4 py-6 text-center text-gray-500 dark:text-gray-400">
                  {loading ? 'Loading...' : 'Kosong'}
                </td>
              </tr>
            ) : (
              rows.map((row) => {
                const detail = expanded?.(row) ?? null;
                return (
                  <Fragment key={rowKey(row)}>
                    <tr className={`transition-colors ${rowClass?.(row) ?? ''}`} data-row={rowKey(row)}>
                      {columns.map((c, i) => (
                        <td
                          // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed per table
                          key={i}
                          className={`px-4 py-3 text-gray-700 dark:text-gray-300 ${c.className ?? ''}`}
                        >
                          {c.cell(row)}
                        </td>
                      ))}
                    </tr>
                    {detail !== null && (
                      <tr data-detail={rowKey(row)} className="bg-gray-50 dark:bg-white/[0.02]">
                        <td colSpan={columns.length} className="px-4 py-3 text-gray-700 dark:text-gray-300">
                          {detail}
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })
            )}
          </tbody>
          {footer && rows.length > 0 && (
            <tfoot className="border-t border-gray-200 bg-gray-50 dark:border-white/[0.05] dark:bg-white/[0.02]">
              <tr data-row="totals">
                {columns.map((c, i) => (
                  <td
                    // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed per table
                    key={i}
                    className={`px-4 py-3 font-semibold text-gray-800 dark:text-white/90 ${c.className ?? ''}`}
                  >
                    {footer[i]}
                  </td>
                ))}
              </tr>
            </tfoot>
          )}
        </table>
      </div>
    </div>
  );
}

/** Previous/Next with 'Page X of Y', shown only when there is more than one page (§2). */
export function Pagination({
  page,
  totalPages,
  onPage,
}: {
  page: number;
  totalPages: number;
  onPage(p: number): void;
}) {
  if (totalPages <= 1) return null;
  return (
    <div className="mt-4 flex items-center justify-between gap-3" data-testid="pagination">
      <button
        type="button"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
        className="rounded-lg border border-gray-300 bg-white px-3.5 py-2 text-sm text-gray-700 hover:bg-gray-50 disabled:opacity-50 dark:border-gray-700 dark:bg-gray-800 dark:text-gray-400"
      >
        Previous
      </button>
      <span className="text-sm text-gray-700 dark:text-gray-400">
        Page {page} of {totalPages}
      </span>
      <button
        type="button"
        disabled={page >= totalPages}
        onClick={() => onPage(page + 1)}
        className="rounded-lg border border-gray-300 bg-white px-3.5 py-2 text-sm text-gray-700 hover:bg-gray-50 disabled:opacity-50 dark:border-gray-700 dark:bg-gray-800 dark:text-gray-400"
      >
        Next
      </button>
    </div>
  );
}
