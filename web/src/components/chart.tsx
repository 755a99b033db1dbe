import { lazy, Suspense } from 'react';
import { useDarkMode } from '../lib/use-dark-mode';
import type { ChartSpec } from './chart-spec';

export type { AreaSpec, BarSpec, ChartSeries, ChartSpec, TimePoint } from './chart-spec';

// The chart library (Chart.js) loads with the first chart drawn, not with the screen: a dashboard
// shows its figures first, and the sign-in screen never needs it (issue 23).
const ChartCanvas = lazy(() => import('./chart-canvas').then((m) => ({ default: m.ChartCanvas })));

/** The TailAdmin palette the charts draw with: brand blue, green, red, orange. */
export const CHART_COLORS = { brand: '#465fff', success: '#12b76a', error: '#f04438', warning: '#fb6514' };

/**
 * The one chart of the app, in the page's light or dark theme (it redraws when the header's toggle
 * flips it). `spec` should be stable (useMemo) so a re-render does not redraw. The box says what
 * it draws for a test or a screen reader: its name, theme, series and points.
 */
export function Chart({
  spec,
  height,
  label,
  testId,
}: {
  spec: ChartSpec;
  height: number;
  /** the accessible name of the drawing */
  label: string;
  testId: string;
}) {
  const dark = useDarkMode();
  const points = spec.type === 'bar' ? spec.categories.length : (spec.series[0]?.data.length ?? 0);
  const empty = spec.series.length === 0;
  return (
    <div
      role="img"
      aria-label={label}
      data-testid={testId}
      data-theme={dark ? 'dark' : 'light'}
      data-series={spec.series.length}
      data-points={points}
      className="relative"
      style={{ height }}
    >
      {empty ? (
        <p className="flex h-full items-center justify-center text-sm text-gray-500 dark:text-gray-400">
          {spec.noData ?? ''}
        </p>
      ) : (
        <Suspense fallback={<div className="h-full animate-pulse rounded-lg bg-gray-100 dark:bg-gray-800" />}>
          <ChartCanvas spec={spec} dark={dark} />
        </Suspense>
      )}
    </div>
  );
}
