import { MOBILE_BREAKPOINT } from '@wa/shared';
import { useSyncExternalStore } from 'react';
import type { Column } from './data-table';

const WIDE_QUERY = `(min-width: ${MOBILE_BREAKPOINT}px)`;

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(WIDE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
const isNarrow = () => !window.matchMedia(WIDE_QUERY).matches;

/**
 * Whether the window is narrower than the sidebar's mobile breakpoint (768 px, Tailwind's `md`).
 * A list that shows cards there renders one layout only, so a row's controls exist once on the page.
 */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(subscribe, isNarrow, () => false);
}

/**
 * The rows of a DataTable as cards, for a phone: the same columns, so a row shows and does the same
 * in both. Each column's `card` says where its cell goes; 'Kosong' when there is nothing (§2).
 */
export function CardList<T>({
  columns,
  rows,
  rowKey,
  loading,
  rowClass,
}: {
  columns: Column<T>[];
  rows: T[];
  rowKey(row: T): string | number;
  loading?: boolean;
  rowClass?(row: T): string;
}) {
  const titles = columns.filter((c) => c.card === 'title');
  const fields = columns.filter((c) => c.card === undefined || c.card === 'wide');
  const actions = columns.filter((c) => c.card === 'actions');
  const box = 'rounded-xl border border-gray-200 bg-white dark:border-white/[0.05] dark:bg-white/[0.03]';
  if (rows.length === 0) {
    return (
      <div className={`${box} px-5 py-6 text-center text-sm text-gray-500 dark:text-gray-400`}>
        {loading ? 'Loading...' : 'Kosong'}
      </div>
    );
  }
  return (
    <ul className="flex flex-col gap-3" data-testid="card-list">
      {rows.map((row) => (
        <li key={rowKey(row)} data-row={rowKey(row)} className={`${box} p-4 text-sm ${rowClass?.(row) ?? ''}`}>
          {titles.length > 0 && (
            <div className="mb-3 flex flex-wrap items-start justify-between gap-2 text-gray-700 dark:text-gray-300">
              {titles.map((c, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed per list
                <div key={i}>{c.cell(row)}</div>
              ))}
            </div>
          )}
          <dl className="grid grid-cols-3 gap-x-3 gap-y-3">
            {fields.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed per list
              <div key={i} className={`min-w-0 ${c.card === 'wide' ? 'col-span-full' : ''}`}>
                <dt className="text-xs font-medium text-gray-500 dark:text-gray-400">{c.header}</dt>
                <dd className="mt-1 min-w-0 text-gray-700 dark:text-gray-300">{c.cell(row)}</dd>
              </div>
            ))}
          </dl>
          {actions.length > 0 && (
            <div className="mt-3 flex flex-col gap-2 border-t border-gray-100 pt-3 dark:border-white/[0.05]">
              {actions.map((c, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed per list
                <div key={i}>{c.cell(row)}</div>
              ))}
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
