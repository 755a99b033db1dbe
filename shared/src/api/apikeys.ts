import { routes } from './define';

/** /admin/apikeys: to be declared (issue 21). */
export const API_KEYS = routes('apikeys', '/admin/apikeys', {});
