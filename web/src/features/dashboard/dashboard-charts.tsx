import { type ChartsResponse, formatRupiah } from '@wa/shared';
import type { ApexOptions } from 'apexcharts';
import { type ReactNode, useMemo } from 'react';
import { Alert } from '../../components/alert';
import { CHART_COLORS, Chart } from '../../components/chart';
import { Card } from '../../components/page-breadcrumb';
import { accountRates, hourlySeries, incomeSeries, localToday } from './chart-data';

const NO_DATA = { text: 'Belum ada data' };
const count = (n: number) => Math.round(n).toLocaleString('id-ID');

function ChartCard({
  title,
  hint,
  wide,
  children,
}: {
  title: string;
  hint: string;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <Card className={wide ? 'xl:col-span-2' : ''}>
      <h3 className="text-lg font-semibold text-gray-800 dark:text-white/90">{title}</h3>
      <p className="mb-2 text-sm text-gray-500 dark:text-gray-400">{hint}</p>
      {children}
    </Card>
  );
}

/** Sent, delivered and failed messages per hour over the last 7 days. */
function HourlyChart({ hourly }: { hourly: ChartsResponse['hourly'] }) {
  const series = useMemo<ApexAxisChartSeries>(() => {
    const s = hourlySeries(hourly, Date.now());
    return [
      { name: 'Dikirim', data: s.sent },
      { name: 'Terkirim', data: s.delivered },
      { name: 'Gagal', data: s.failed },
    ];
  }, [hourly]);
  const options = useMemo<ApexOptions>(
    () => ({
      colors: [CHART_COLORS.brand, CHART_COLORS.success, CHART_COLORS.error],
      dataLabels: { enabled: false },
      stroke: { curve: 'smooth', width: 2 },
      fill: { type: 'gradient', gradient: { opacityFrom: 0.45, opacityTo: 0 } },
      xaxis: { type: 'datetime', labels: { datetimeUTC: false } },
      yaxis: { min: 0, forceNiceScale: true, labels: { formatter: count } },
      tooltip: { x: { format: 'dd MMM HH:mm' } },
    }),
    [],
  );
  return (
    <Chart type="area" series={series} options={options} height={310} label="Pesan per jam" testId="chart-hourly" />
  );
}

/** Delivered / sent per account over the last 7 days, as a percentage. */
function AccountsChart({ accounts }: { accounts: ChartsResponse['accounts'] }) {
  const { labels, rates } = useMemo(() => accountRates(accounts), [accounts]);
  const series = useMemo<ApexAxisChartSeries>(() => (rates.length ? [{ name: 'Terkirim', data: rates }] : []), [rates]);
  const options = useMemo<ApexOptions>(
    () => ({
      colors: [CHART_COLORS.success],
      plotOptions: { bar: { borderRadius: 4, columnWidth: '45%' } },
      dataLabels: { enabled: false },
      xaxis: { categories: labels },
      yaxis: { min: 0, max: 100, labels: { formatter: (v: number) => `${Math.round(v)}%` } },
      tooltip: {
        y: {
          formatter: (v: number, { dataPointIndex }: { dataPointIndex: number }) => {
            const a = accounts[dataPointIndex];
            return a ? `${v}% (${count(a.delivered)} dari ${count(a.sent)})` : `${v}%`;
          },
        },
      },
      noData: NO_DATA,
    }),
    [labels, accounts],
  );
  return (
    <Chart
      type="bar"
      series={series}
      options={options}
      height={280}
      label="Tingkat terkirim per akun"
      testId="chart-accounts"
    />
  );
}

/** The member's income per day over the last 30 days. */
function IncomeChart({ income }: { income: ChartsResponse['income'] }) {
  const { dates, values } = useMemo(() => incomeSeries(income, localToday()), [income]);
  const series = useMemo<ApexAxisChartSeries>(() => [{ name: 'Pendapatan', data: values }], [values]);
  const options = useMemo<ApexOptions>(
    () => ({
      colors: [CHART_COLORS.brand],
      plotOptions: { bar: { borderRadius: 3, columnWidth: '55%' } },
      dataLabels: { enabled: false },
      xaxis: {
        categories: dates.map((d) => `${d.slice(8, 10)}/${d.slice(5, 7)}`),
        labels: { rotate: -45, hideOverlappingLabels: true },
        tickAmount: 10,
      },
      yaxis: { min: 0, forceNiceScale: true, labels: { formatter: (v: number) => formatRupiah(v) } },
      tooltip: { y: { formatter: (v: number) => formatRupiah(v) } },
    }),
    [dates],
  );
  return (
    <Chart
      type="bar"
      series={series}
      options={options}
      height={280}
      label="Pendapatan per hari"
      testId="chart-income"
    />
  );
}

/**
 * The dashboards' charts (issue 11): messages per hour and the delivery rate per account for
 * everybody (admin, dev) or the member's own, and the member's income per day.
 */
export function DashboardCharts({
  data,
  error,
  income,
}: {
  data: ChartsResponse | null;
  error: string | null;
  income: boolean;
}) {
  return (
    <section
      aria-label="Grafik"
      className="grid grid-cols-1 gap-4 md:gap-6 xl:grid-cols-2"
      data-testid="dashboard-charts"
    >
      {error && (
        <div className="xl:col-span-2">
          <Alert tone="error">{error}</Alert>
        </div>
      )}
      <ChartCard title="Pesan per Jam" hint="7 hari terakhir: dikirim, terkirim ke penerima, dan gagal" wide>
        {data && <HourlyChart hourly={data.hourly} />}
      </ChartCard>
      <ChartCard
        title="Tingkat Terkirim per Akun"
        hint="7 hari terakhir: pesan terkirim dari pesan yang dikirim"
        wide={!income}
      >
        {data && <AccountsChart accounts={data.accounts} />}
      </ChartCard>
      {income && (
        <ChartCard title="Pendapatan per Hari" hint="30 hari terakhir">
          {data && <IncomeChart income={data.income} />}
        </ChartCard>
      )}
    </section>
  );
}
