import { routes } from './define';

/** /admin/whatsapp: to be declared (issue 21). */
export const WHATSAPP = routes('whatsapp', '/admin/whatsapp', {});
