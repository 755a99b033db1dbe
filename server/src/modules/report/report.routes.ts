import { REPORT, REPORT_CSV_COLUMNS } from '@wa/shared';
import { Router } from 'express';
import { actorOf } from '../../http/auth';
import { bind } from '../../http/route';
import { streamDownload } from '../../http/stream';
import type { ReportService } from './report.service';

/**
 * Issue 11 Reports: /api/admin/report (a page and totals), /export (CSV or JSON), /charts (the
 * dashboards'), as declared in shared/src/api/report.ts.
 */
export function reportRoutes(reports: ReportService): Router {
  const r = Router();
  bind(r, REPORT.page, ({ req, query }) => reports.report(actorOf(req), query));
  bind(r, REPORT.export, async ({ req, res, query }) => {
    const f = await reports.filter(actorOf(req), query);
    const first = await reports.exportBatch(f, 0);
    if (!first.length) {
      res.status(404).json({ msg: 'No messages to export.' });
      return;
    }
    await streamDownload(res, {
      format: query.format,
      filename: `report.${query.format}`,
      columns: REPORT_CSV_COLUMNS,
      next: (after) => (after === 0 ? Promise.resolve(first) : reports.exportBatch(f, after)),
      pick: (row) => Object.fromEntries(REPORT_CSV_COLUMNS.map((c) => [c, row[c]])),
    });
  });
  bind(r, REPORT.charts, ({ req, query }) => reports.charts(actorOf(req), query.user_id));
  return r;
}
