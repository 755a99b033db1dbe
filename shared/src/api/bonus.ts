import { routes } from './define';

/** /admin/bonus: to be declared (issue 21). */
export const BONUS = routes('bonus', '/admin/bonus', {});
