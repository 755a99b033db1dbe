import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

const TONES = {
  brand: 'bg-brand-50 text-brand-500 dark:bg-brand-500/15 dark:text-brand-400',
  success: 'bg-green-50 text-green-600 dark:bg-green-500/15 dark:text-green-500',
  error: 'bg-red-50 text-red-600 dark:bg-red-500/15 dark:text-red-500',
  warning: 'bg-orange-50 text-orange-500 dark:bg-orange-500/15 dark:text-orange-400',
  neutral: 'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-white/80',
};
export type StatTone = keyof typeof TONES;

/** A figure still on its way (no cached value yet): a quiet placeholder of the figure's height. */
function Pending() {
  return (
    <span className="inline-block h-7 w-20 animate-pulse rounded-md bg-gray-100 align-middle dark:bg-gray-800">
      <span className="sr-only">Memuat…</span>
    </span>
  );
}

/**
 * The one stat card: an icon tile, a label and one big figure (or several small ones as
 * `children`). `value` null means "not known yet". `testId` names the card; its figure is
 * `${testId}-value`.
 */
export function StatCard({
  icon: Icon,
  label,
  value,
  tone = 'brand',
  testId,
  children,
}: {
  icon: LucideIcon;
  label: string;
  value?: string | null;
  tone?: StatTone;
  testId?: string;
  children?: ReactNode;
}) {
  return (
    <div
      className="rounded-2xl border border-gray-200 bg-white p-5 md:p-6 dark:border-gray-800 dark:bg-white/[0.03]"
      data-testid={testId}
    >
      <div className={`flex size-12 items-center justify-center rounded-xl ${TONES[tone]}`}>
        <Icon size={24} aria-hidden="true" />
      </div>
      <div className="mt-5 min-w-0">
        <span className="block text-sm text-gray-500 dark:text-gray-400">{label}</span>
        {value !== undefined && (
          <h4
            className="mt-2 break-words text-2xl font-bold tabular-nums text-gray-800 dark:text-white/90"
            data-testid={testId ? `${testId}-value` : undefined}
          >
            {value === null ? <Pending /> : value}
          </h4>
        )}
      </div>
      {children}
    </div>
  );
}

/** Two small figures side by side inside a stat card (e.g. success and fail). */
export function StatSplit({
  items,
  testId,
}: {
  items: { label: string; value: string | null; tone: 'success' | 'error' | 'neutral' }[];
  testId?: string;
}) {
  const colour = {
    success: 'text-green-600 dark:text-green-500',
    error: 'text-red-600 dark:text-red-500',
    neutral: '',
  };
  return (
    <dl className="mt-2 grid grid-cols-2 divide-x divide-gray-200 dark:divide-gray-800">
      {items.map((it, i) => (
        <div key={it.label} className={i === 0 ? 'pr-4' : 'pl-4'}>
          <dt className="text-xs text-gray-500 dark:text-gray-400">{it.label}</dt>
          <dd
            className={`text-2xl font-bold tabular-nums ${colour[it.tone]}`}
            data-testid={testId ? `${testId}-${it.label.toLowerCase()}` : undefined}
          >
            {it.value === null ? <Pending /> : it.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
