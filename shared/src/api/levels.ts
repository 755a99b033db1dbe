import { routes } from './define';

/** /admin/level: to be declared (issue 21). */
export const LEVELS = routes('levels', '/admin/level', {});
