import type { ReactNode } from 'react';

const COLORS = {
  success: 'bg-green-50 text-green-600 dark:bg-green-500/15 dark:text-green-500',
  warning: 'bg-yellow-50 text-yellow-700 dark:bg-yellow-500/15 dark:text-yellow-400',
  error: 'bg-red-50 text-red-600 dark:bg-red-500/15 dark:text-red-500',
  neutral: 'bg-gray-100 text-gray-700 dark:bg-white/5 dark:text-white/80',
  brand: 'bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-400',
};

/** A small coloured label. `color` may also be a hex colour (level badges). */
export function Badge({
  tone = 'neutral',
  color,
  children,
}: {
  tone?: keyof typeof COLORS;
  color?: string | null;
  children: ReactNode;
}) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ${color ? 'text-white' : COLORS[tone]}`}
      style={color ? { backgroundColor: color } : undefined}
    >
      {children}
    </span>
  );
}
