import { routes } from './define';

/** /admin/webhooks: to be declared (issue 21). */
export const WEBHOOKS = routes('webhooks', '/admin/webhooks', {});
