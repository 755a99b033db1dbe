import { type CampaignDto, type CampaignReport, formatRupiah } from '@wa/shared';
import { Ban, CheckCheck, Eye, MessageCircleReply, Send, Wallet, XCircle } from 'lucide-react';
import { useMemo } from 'react';
import { CHART_COLORS, Chart, type ChartSpec } from '../../components/chart';
import { Card } from '../../components/page-breadcrumb';
import { StatCard } from '../../components/stat-card';
import { BudgetBars } from './budget-bar';
import { count, dayLabel, perDay } from './campaign-ui';

/** The campaign's own counters (kept by its sends and receipts), as stat cards. */
function Stats({ campaign: c }: { campaign: CampaignDto }) {
  const cards = [
    { key: 'sent', label: 'Sent', value: count(c.sent), icon: Send, tone: 'brand' as const },
    { key: 'delivered', label: 'Delivered', value: count(c.delivered), icon: CheckCheck, tone: 'success' as const },
    { key: 'read', label: 'Read', value: count(c.read), icon: Eye, tone: 'success' as const },
    { key: 'replied', label: 'Replied', value: count(c.replied), icon: MessageCircleReply, tone: 'brand' as const },
    { key: 'optout', label: 'Opt-out', value: count(c.optout), icon: Ban, tone: 'warning' as const },
    { key: 'failed', label: 'Failed', value: count(c.failed), icon: XCircle, tone: 'error' as const },
    { key: 'spent', label: 'Spent', value: formatRupiah(c.spent), icon: Wallet, tone: 'neutral' as const },
  ];
  return (
    <div className="grid grid-cols-2 gap-4 sm:grid-cols-3 xl:grid-cols-4 2xl:grid-cols-7" data-testid="campaign-stats">
      {cards.map((s) => (
        <StatCard key={s.key} icon={s.icon} label={s.label} value={s.value} tone={s.tone} testId={`stat-${s.key}`} />
      ))}
    </div>
  );
}

/** Sent, delivered and replied per day (the days of the report, each message on the day it was sent). */
function DailyChart({ report }: { report: CampaignReport }) {
  const days = useMemo(() => perDay(report.rows), [report.rows]);
  const spec = useMemo<ChartSpec>(
    () => ({
      type: 'bar',
      categories: days.days.map(dayLabel),
      series: days.days.length
        ? [
            { name: 'Sent', color: CHART_COLORS.brand, data: days.sent },
            { name: 'Delivered', color: CHART_COLORS.success, data: days.delivered },
            { name: 'Replied', color: CHART_COLORS.warning, data: days.replied },
          ]
        : [],
      barWidth: 0.55,
      barRadius: 3,
      yLabel: (v) => count(Math.round(v)),
      noData: 'Nothing sent yet',
    }),
    [days],
  );
  return <Chart spec={spec} height={280} label="Messages per day" testId="campaign-chart" />;
}

/**
 * The campaign's progress: its budgets' use, its counters, and a chart of each day's sent,
 * delivered and replied messages.
 */
export function CampaignFigures({ campaign, report }: { campaign: CampaignDto; report: CampaignReport | null }) {
  return (
    <section aria-label="Progress" className="mb-6 space-y-6">
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
        <Card className="min-w-0">
          <h3 className="mb-4 text-lg font-semibold text-gray-800 dark:text-white/90">Budget use</h3>
          <BudgetBars campaign={campaign} />
          <p className="mt-4 text-sm text-gray-500 dark:text-gray-400">
            Price per delivered message: {formatRupiah(campaign.price_per_delivered)}
          </p>
        </Card>
        <Card className="min-w-0 xl:col-span-2">
          <h3 className="text-lg font-semibold text-gray-800 dark:text-white/90">Per day</h3>
          <p className="mb-2 text-sm text-gray-500 dark:text-gray-400">Sent, delivered and replied messages</p>
          {report && <DailyChart report={report} />}
        </Card>
      </div>
      <Stats campaign={campaign} />
    </section>
  );
}
