import { chartsQuery, chartsResponse, reportExportQuery, reportQuery, reportResponse } from '../contract/report';
import { routes } from './define';

/** Issue 11 Reports: /admin/report (a page and totals), /export (CSV or JSON), /charts (the dashboards'). */
export const REPORT = routes('report', '/admin/report', {
  page: {
    method: 'get',
    path: '/',
    summary: 'A page of the report, with totals',
    access: 'report.read',
    query: reportQuery,
    response: reportResponse,
  },
  export: {
    method: 'get',
    path: '/export',
    summary: 'Export the report (CSV or JSON download)',
    access: 'report.read',
    query: reportExportQuery,
    produces: 'text/csv',
  },
  charts: {
    method: 'get',
    path: '/charts',
    summary: "The dashboards' charts",
    access: 'counters.read',
    query: chartsQuery,
    response: chartsResponse,
  },
});
