import { routes } from './define';

/** /admin/first-run: to be declared (issue 21). */
export const FIRST_RUN = routes('first-run', '/admin/first-run', {});
