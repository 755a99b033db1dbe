import { routes } from './define';

/** /admin/message: to be declared (issue 21). */
export const TEMPLATES = routes('templates', '/admin/message', {});
