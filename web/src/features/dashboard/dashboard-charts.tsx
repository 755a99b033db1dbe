import { type ChartsResponse, formatRupiah } from '@wa/shared';
import { type ReactNode, useMemo } from 'react';
import { Alert } from '../../components/alert';
import { CHART_COLORS, Chart, type ChartSpec } from '../../components/chart';
import { Card } from '../../components/page-breadcrumb';
import { accountRates, hourlySeries, incomeSeries, localToday } from './chart-data';

const NO_DATA = 'Belum ada data';
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
  const spec = useMemo<ChartSpec>(() => {
    const s = hourlySeries(hourly, Date.now());
    return {
      type: 'area',
      series: [
        { name: 'Dikirim', color: CHART_COLORS.brand, data: s.sent },
        { name: 'Terkirim', color: CHART_COLORS.success, data: s.delivered },
        { name: 'Gagal', color: CHART_COLORS.error, data: s.failed },
      ],
      yLabel: count,
    };
  }, [hourly]);
  return <Chart spec={spec} height={310} label="Pesan per jam" testId="chart-hourly" />;
}

/** Delivered / sent per account over the last 7 days, as a percentage. */
function AccountsChart({ accounts }: { accounts: ChartsResponse['accounts'] }) {
  const spec = useMemo<ChartSpec>(() => {
    const { labels, rates } = accountRates(accounts);
    return {
      type: 'bar',
      categories: labels,
      series: rates.length ? [{ name: 'Terkirim', color: CHART_COLORS.success, data: rates }] : [],
      barWidth: 0.45,
      barRadius: 4,
      yMax: 100,
      yLabel: (v) => `${Math.round(v)}%`,
      tooltip: (v, i) => {
        const a = accounts[i];
        return a ? `${v}% (${count(a.delivered)} dari ${count(a.sent)})` : `${v}%`;
      },
      noData: NO_DATA,
    };
  }, [accounts]);
  return <Chart spec={spec} height={280} label="Tingkat terkirim per akun" testId="chart-accounts" />;
}

/** The member's income per day over the last 30 days. */
function IncomeChart({ income }: { income: ChartsResponse['income'] }) {
  const spec = useMemo<ChartSpec>(() => {
    const { dates, values } = incomeSeries(income, localToday());
    return {
      type: 'bar',
      categories: dates.map((d) => `${d.slice(8, 10)}/${d.slice(5, 7)}`),
      series: [{ name: 'Pendapatan', color: CHART_COLORS.brand, data: values }],
      barWidth: 0.55,
      barRadius: 3,
      slantedLabels: 10,
      yLabel: (v) => formatRupiah(v),
    };
  }, [income]);
  return <Chart spec={spec} height={280} label="Pendapatan per hari" testId="chart-income" />;
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
