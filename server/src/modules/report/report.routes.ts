import { parse } from '@wa/core/validate';
import { chartsQuery, REPORT_CSV_COLUMNS, reportExportQuery, reportQuery } from '@wa/shared';
import { Router } from 'express';
import { actorOf, allow } from '../../http/auth';
import { streamDownload } from '../../http/stream';
import type { ReportService } from './report.service';

/** Issue 11 Reports: /api/admin/report (a page and totals), /export (CSV or JSON), /charts (the dashboards'). */
export function reportRoutes(reports: ReportService): Router {
  const r = Router();
  r.get('/', allow('report.read'), async (req, res) => {
    res.json(await reports.report(actorOf(req), parse(reportQuery, req.query)));
  });
  r.get('/export', allow('report.read'), async (req, res) => {
    const q = parse(reportExportQuery, req.query);
    const f = await reports.filter(actorOf(req), q);
    const first = await reports.exportBatch(f, 0);
    if (!first.length) {
      res.status(404).json({ msg: 'No messages to export.' });
      return;
    }
    await streamDownload(res, {
      format: q.format,
      filename: `report.${q.format}`,
      columns: REPORT_CSV_COLUMNS,
      next: (after) => (after === 0 ? Promise.resolve(first) : reports.exportBatch(f, after)),
      pick: (row) => Object.fromEntries(REPORT_CSV_COLUMNS.map((c) => [c, row[c]])),
    });
  });
  r.get('/charts', allow('counters.read'), async (req, res) => {
    res.json(await reports.charts(actorOf(req), parse(chartsQuery, req.query).user_id));
  });
  return r;
}
