// What a chart draws, in the screens' terms: chart.tsx takes it, chart-canvas.tsx draws it with the
// chart library. Apart from both, so neither imports the other's module.

/** A point of a time series: epoch milliseconds and a figure. */
export type TimePoint = [number, number];

/** One line or one set of bars: its name in the legend and tooltip, its colour, its figures. */
export interface ChartSeries<D> {
  name: string;
  color: string;
  data: D[];
}

interface SpecBase {
  /** the value axis' labels */
  yLabel(value: number): string;
  /** the value axis' top, when it is fixed (a percentage: 100) */
  yMax?: number;
  /** a value in the tooltip (the value axis' label when absent); `index` is the point's */
  tooltip?(value: number, index: number): string;
  /** shown instead of the drawing when there is no series */
  noData?: string;
}

/** Lines over time, smooth, each filled with its colour fading downwards. */
export interface AreaSpec extends SpecBase {
  type: 'area';
  series: ChartSeries<TimePoint>[];
}

/** Bars per category: one bar per series side by side, rounded at the top. */
export interface BarSpec extends SpecBase {
  type: 'bar';
  categories: string[];
  series: ChartSeries<number>[];
  /** the share of a category's width its bars take together (0–1) */
  barWidth: number;
  barRadius: number;
  /** at most this many category labels, slanted (a long run of days) */
  slantedLabels?: number;
}

/** What a chart draws, without the library's own terms: the screens describe, chart-canvas.tsx draws. */
export type ChartSpec = AreaSpec | BarSpec;
