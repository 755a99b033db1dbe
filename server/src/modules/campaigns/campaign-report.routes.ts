import {
  CAMPAIGN_LEAD_COLUMNS,
  CAMPAIGN_OPERATOR_COLUMNS,
  CAMPAIGN_REPORT_COLUMNS,
  CAMPAIGNS,
  csvCell,
} from '@wa/shared';
import { Router } from 'express';
import { actorOf } from '../../http/auth';
import { bind } from '../../http/route';
import { streamDownload } from '../../http/stream';
import { writeChunk } from '../../imports/write-chunk';
import type { CampaignReportService } from './campaign-report.service';

/**
 * /api/admin/campaigns/{id}/report, /replies, /leads and /topups (issue 22), mounted by
 * campaignsRoutes: what a campaign proves to its advertiser, and what they paid.
 */
export function campaignReportRoutes(reports: CampaignReportService): Router {
  const r = Router();
  bind(r, CAMPAIGNS.report, async ({ params, req }) => {
    const { operator: _, ...report } = await reports.report(actorOf(req), params.id);
    return report;
  });
  bind(r, CAMPAIGNS.reportExport, async ({ params, query, req, res }) => {
    const { operator, ...report } = await reports.report(actorOf(req), params.id);
    // a client's export has no operator's columns (fees, margin)
    const columns = CAMPAIGN_REPORT_COLUMNS.filter(
      (c) => operator || !(CAMPAIGN_OPERATOR_COLUMNS as readonly string[]).includes(c),
    );
    res.status(200);
    res.setHeader('Content-Disposition', `attachment; filename="campaign-${params.id}-report.${query.format}"`);
    if (query.format === 'json') {
      res.type('application/json');
      await writeChunk(res, JSON.stringify(report));
    } else {
      res.type('text/csv; charset=utf-8');
      const lines = [columns.join(',')];
      for (const row of report.rows) lines.push(columns.map((c) => csvCell(row[c])).join(','));
      const { totals } = report;
      const sums = columns.slice(2).map((c) => csvCell(totals[c as keyof typeof totals]));
      lines.push(['total', '', ...sums].join(','));
      await writeChunk(res, `${lines.join('\n')}\n`);
    }
    res.end();
  });
  bind(r, CAMPAIGNS.replies, ({ params, query, req }) => reports.replies(actorOf(req), params.id, query.page));
  bind(r, CAMPAIGNS.leadsExport, async ({ params, req, res }) => {
    const next = await reports.leads(actorOf(req), params.id);
    await streamDownload(res, {
      format: 'csv',
      filename: `campaign-${params.id}-leads.csv`,
      columns: CAMPAIGN_LEAD_COLUMNS,
      next,
      pick: (l) => ({ ...l }),
    });
  });
  bind(r, CAMPAIGNS.topups, ({ params, req }) => reports.topups(actorOf(req), params.id));
  bind(r, CAMPAIGNS.topup, ({ params, body, req }) => reports.topup(actorOf(req), params.id, body));
  return r;
}
