import { type CampaignReport, type CampaignReportRow, formatRupiah } from '@wa/shared';
import { type Column, DataTable } from '../../components/data-table';
import { ExportButtons } from '../../components/export-buttons';
import { Card } from '../../components/page-breadcrumb';
import { campaignsApi } from './api';
import { count, dayLabel, type REPORT_FIGURES, reportFigures, variantLabel } from './campaign-ui';

type Figure = (typeof REPORT_FIGURES)[number];
/** A figure as shown; the operator's (fees, margin) are null for a client and never shown to one. */
const shown = (f: Figure, v: number | null) => (v === null ? '' : f.money ? formatRupiah(v) : count(v));

/**
 * The report per day and variant with its totals, and its export (CSV, JSON). A client sees what
 * was sent, delivered, read, failed, replied and opted out and what it cost; the members' fees and
 * the margin are shown to admins and devs only.
 */
export function CampaignReportTable({
  campaignId,
  report,
  operator,
}: {
  campaignId: number;
  report: CampaignReport | null;
  operator: boolean;
}) {
  const figures = reportFigures(operator);
  const columns: Column<CampaignReportRow>[] = [
    { header: 'Day', className: 'whitespace-nowrap', cell: (r) => dayLabel(r.day) },
    { header: 'Variant', cell: (r) => variantLabel(r.variant_id) },
    ...figures.map((f) => ({
      header: f.header,
      className: 'whitespace-nowrap text-end',
      cell: (r: CampaignReportRow) => <span data-figure={f.key}>{shown(f, r[f.key])}</span>,
    })),
  ];
  const totals = report?.totals;
  const footer = totals && [
    'Total',
    null,
    ...figures.map((f) => (
      <span key={f.key} data-total={f.key}>
        {shown(f, totals[f.key])}
      </span>
    )),
  ];
  return (
    <section aria-label="Report" className="mb-6 min-w-0">
      <Card>
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <h3 className="text-lg font-semibold text-gray-800 dark:text-white/90">Report</h3>
          <div className="flex flex-wrap gap-2">
            <ExportButtons
              total={report?.rows.length ?? 0}
              empty="Nothing sent yet: no report to export."
              url={(format) => campaignsApi.reportExportUrl(campaignId, format)}
            />
          </div>
        </div>
        <div data-testid="campaign-report">
          <DataTable
            columns={columns}
            rows={report?.rows ?? []}
            rowKey={(r) => `${r.day}-${r.variant_id ?? 'none'}`}
            loading={report === null}
            footer={footer}
          />
        </div>
      </Card>
    </section>
  );
}
