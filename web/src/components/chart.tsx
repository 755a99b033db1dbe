import type { ApexOptions } from 'apexcharts';
import { lazy, Suspense, useMemo } from 'react';
import { useDarkMode } from '../lib/use-dark-mode';

type ApexChartComponent = typeof import('react-apexcharts').default;
const isComponent = (v: unknown): v is ApexChartComponent => typeof v === 'function';

// ApexCharts is the largest library of the app and only the dashboards draw charts: it loads with
// the first chart, not with the sign-in page. react-apexcharts 1.x is CommonJS with
// `exports.default`, and the build's Node-style interop hands over the exports object as the
// default: the component is one level further down there.
const ReactApexChart = lazy(async () => {
  const loaded: unknown = (await import('react-apexcharts')).default;
  const inner = loaded && typeof loaded === 'object' && 'default' in loaded ? loaded.default : loaded;
  if (!isComponent(inner)) throw new Error('react-apexcharts did not load');
  return { default: inner };
});

/** The TailAdmin palette the charts draw with: brand blue, green, red, orange. */
export const CHART_COLORS = { brand: '#465fff', success: '#12b76a', error: '#f04438', warning: '#fb6514' };

const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

/** The chart's text, grid and tooltip in the page's theme (TailAdmin's gray-500/400, gray-100/800). */
function themed(options: ApexOptions, dark: boolean): ApexOptions {
  return {
    ...options,
    chart: {
      ...options.chart,
      background: 'transparent',
      foreColor: dark ? '#98a2b3' : '#667085',
      fontFamily: 'Outfit, sans-serif',
      toolbar: { show: false },
      zoom: { enabled: false },
      // a user who asked for less motion gets the chart drawn at once
      animations: { ...options.chart?.animations, enabled: !reducedMotion() },
    },
    theme: { mode: dark ? 'dark' : 'light' },
    grid: { ...options.grid, borderColor: dark ? '#1d2939' : '#f2f4f7' },
    tooltip: { ...options.tooltip, theme: dark ? 'dark' : 'light' },
    legend: { position: 'top', horizontalAlign: 'left', ...options.legend },
  };
}

/**
 * The one chart of the app: ApexCharts through react-apexcharts, following the light/dark theme
 * (it redraws when the header's toggle flips it). `options` should be stable (useMemo) so a
 * re-render does not redraw.
 */
export function Chart({
  type,
  series,
  options,
  height,
  label,
  testId,
}: {
  type: 'area' | 'bar' | 'line';
  series: ApexAxisChartSeries;
  options: ApexOptions;
  height: number;
  /** the accessible name of the drawing */
  label: string;
  testId: string;
}) {
  const dark = useDarkMode();
  const all = useMemo(() => themed(options, dark), [options, dark]);
  return (
    <div role="img" aria-label={label} data-testid={testId} data-theme={dark ? 'dark' : 'light'} className="-ml-4">
      <Suspense fallback={<div style={{ height }} className="animate-pulse rounded-lg bg-gray-100 dark:bg-gray-800" />}>
        <ReactApexChart type={type} series={series} options={all} height={height} />
      </Suspense>
    </div>
  );
}
