import {
  BarController,
  BarElement,
  CategoryScale,
  type ChartConfiguration,
  type ChartDataset,
  Chart as ChartJs,
  type ChartOptions,
  type Color,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  type ScriptableContext,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef } from 'react';
import type { AreaSpec, BarSpec, ChartSpec } from './chart-spec';

// only the parts the dashboards draw with, so the rest of Chart.js stays out of the bundle
ChartJs.register(
  BarController,
  BarElement,
  CategoryScale,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
);
// the page's font (TailAdmin's Outfit) for every label, legend and tooltip
ChartJs.defaults.font.family = 'Outfit, sans-serif';

/** The TailAdmin theme: text gray-500 (light) or gray-400 (dark), grid gray-100 or gray-800. */
const THEME = {
  light: {
    text: '#667085',
    grid: '#f2f4f7',
    tipBg: '#ffffff',
    tipTitle: '#1d2939',
    tipBody: '#475467',
    tipBorder: '#e4e7ec',
  },
  dark: {
    text: '#98a2b3',
    grid: '#1d2939',
    tipBg: '#1d2939',
    tipTitle: '#ffffff',
    tipBody: '#d0d5dd',
    tipBorder: '#344054',
  },
};

const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

/** `#rrggbb` at `alpha` (0–1). */
function fade(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/** An area's fill: its colour at 45% at the top of the plot, fading to nothing at the bottom. */
function gradient(color: string) {
  return (ctx: ScriptableContext<'line'>): Color => {
    const area = ctx.chart.chartArea;
    if (!area) return fade(color, 0.2);
    const g = ctx.chart.ctx.createLinearGradient(0, area.top, 0, area.bottom);
    g.addColorStop(0, fade(color, 0.45));
    g.addColorStop(1, fade(color, 0));
    return g;
  };
}

const dayLabel = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short' });
const timeLabel = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false });
/** A moment as 'dd MMM HH:mm' in this browser's zone (the hourly chart's tooltip). */
const moment = (ms: number) => `${dayLabel.format(ms)} ${timeLabel.format(ms)}`;

/** Local midnights from `min` to `max`: the time axis' ticks, one a day. */
function midnights(min: number, max: number): { value: number }[] {
  const d = new Date(min);
  d.setHours(0, 0, 0, 0);
  if (d.getTime() < min) d.setDate(d.getDate() + 1);
  const out: { value: number }[] = [];
  for (; d.getTime() <= max; d.setDate(d.getDate() + 1)) out.push({ value: d.getTime() });
  return out;
}

/** What both kinds share: the theme's text and grid, the legend at the top left, one tooltip for all series. */
function common(spec: ChartSpec, dark: boolean): ChartOptions<'line' | 'bar'> {
  const t = dark ? THEME.dark : THEME.light;
  return {
    responsive: true,
    maintainAspectRatio: false,
    // a user who asked for less motion gets the chart drawn at once
    animation: reducedMotion() ? false : { duration: 400 },
    interaction: { mode: 'index', intersect: false },
    color: t.text,
    plugins: {
      legend: {
        position: 'top',
        align: 'start',
        labels: { color: t.text, usePointStyle: true, pointStyle: 'circle', boxWidth: 8, boxHeight: 8, padding: 16 },
      },
      tooltip: {
        backgroundColor: t.tipBg,
        titleColor: t.tipTitle,
        bodyColor: t.tipBody,
        borderColor: t.tipBorder,
        borderWidth: 1,
        padding: 10,
        usePointStyle: true,
        boxPadding: 4,
        callbacks: {
          label: (item) =>
            `${item.dataset.label}: ${spec.tooltip ? spec.tooltip(item.parsed.y ?? 0, item.dataIndex) : spec.yLabel(item.parsed.y ?? 0)}`,
        },
      },
    },
  };
}

/** The value axis: from 0, round steps, the spec's labels, the theme's grid. */
function yAxis(spec: ChartSpec, dark: boolean) {
  const t = dark ? THEME.dark : THEME.light;
  return {
    beginAtZero: true,
    max: spec.yMax,
    border: { display: false },
    grid: { color: t.grid },
    // whole steps: every figure here is a count, whole rupiah or a percentage
    ticks: { color: t.text, maxTicksLimit: 6, precision: 0, callback: (v: number | string) => spec.yLabel(Number(v)) },
  };
}

function areaConfig(spec: AreaSpec, dark: boolean): ChartConfiguration<'line'> {
  const t = dark ? THEME.dark : THEME.light;
  const datasets: ChartDataset<'line'>[] = spec.series.map((s) => ({
    label: s.name,
    data: s.data.map(([x, y]) => ({ x, y })),
    borderColor: s.color,
    backgroundColor: gradient(s.color),
    pointBackgroundColor: s.color,
    fill: 'origin',
    tension: 0.4,
    borderWidth: 2,
    pointRadius: 0,
    pointHoverRadius: 4,
  }));
  const base = common(spec, dark) as ChartOptions<'line'>;
  return {
    type: 'line',
    data: { datasets },
    options: {
      ...base,
      plugins: {
        ...base.plugins,
        tooltip: {
          ...base.plugins?.tooltip,
          callbacks: { ...base.plugins?.tooltip?.callbacks, title: (items) => moment(items[0]?.parsed.x ?? 0) },
        },
      },
      scales: {
        x: {
          type: 'linear',
          bounds: 'data',
          border: { display: false },
          grid: { display: false },
          // a tick at each local midnight, labelled with its day
          afterBuildTicks: (axis) => {
            axis.ticks = midnights(axis.min, axis.max);
          },
          ticks: { color: t.text, autoSkip: true, maxRotation: 0, callback: (v) => dayLabel.format(Number(v)) },
        },
        y: yAxis(spec, dark),
      },
    },
  };
}

function barConfig(spec: BarSpec, dark: boolean): ChartConfiguration<'bar'> {
  const t = dark ? THEME.dark : THEME.light;
  const base = common(spec, dark) as ChartOptions<'bar'>;
  return {
    type: 'bar',
    data: {
      labels: spec.categories,
      datasets: spec.series.map((s) => ({
        label: s.name,
        data: s.data,
        backgroundColor: s.color,
        borderRadius: spec.barRadius,
        categoryPercentage: spec.barWidth,
        barPercentage: spec.series.length > 1 ? 0.9 : 1,
      })),
    },
    options: {
      ...base,
      scales: {
        x: {
          border: { display: false },
          grid: { display: false },
          ticks: spec.slantedLabels
            ? { color: t.text, autoSkip: true, maxTicksLimit: spec.slantedLabels, minRotation: 45, maxRotation: 45 }
            : { color: t.text, autoSkip: true, maxRotation: 0 },
        },
        y: yAxis(spec, dark),
      },
    },
  };
}

/** Chart.js's configuration of `spec` in the theme. */
function configOf(spec: ChartSpec, dark: boolean): ChartConfiguration<'line'> | ChartConfiguration<'bar'> {
  return spec.type === 'area' ? areaConfig(spec, dark) : barConfig(spec, dark);
}

/**
 * Draws `spec` with Chart.js on a canvas filling its box. A new spec or theme updates the same
 * chart (no flash on a live refresh); the canvas says which theme it was last drawn in.
 */
export function ChartCanvas({ spec, dark }: { spec: ChartSpec; dark: boolean }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<{ drawn: ChartJs; type: ChartSpec['type'] } | null>(null);

  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const config = configOf(spec, dark);
    const current = chart.current;
    if (current && current.type === spec.type) {
      current.drawn.data = config.data;
      current.drawn.options = (config.options ?? {}) as ChartJs['options'];
      current.drawn.update();
    } else {
      current?.drawn.destroy();
      chart.current = { drawn: new ChartJs(el, config as ChartConfiguration), type: spec.type };
    }
    el.dataset.theme = dark ? 'dark' : 'light';
  }, [spec, dark]);

  useEffect(
    () => () => {
      chart.current?.drawn.destroy();
      chart.current = null;
    },
    [],
  );

  return <canvas ref={canvas} />;
}
