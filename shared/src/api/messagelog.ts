import { routes } from './define';

/** /admin/messagelog: to be declared (issue 21). */
export const MESSAGE_LOG = routes('messagelog', '/admin/messagelog', {});
