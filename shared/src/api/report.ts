import { routes } from './define';

/** /admin/report: to be declared (issue 21). */
export const REPORT = routes('report', '/admin/report', {});
