import { routes } from './define';

/** /admin/proxy: to be declared (issue 21). */
export const PROXIES = routes('proxies', '/admin/proxy', {});
