import { routes } from './define';

/** /admin/withdraw: to be declared (issue 21). */
export const WITHDRAW = routes('withdraw', '/admin/withdraw', {});
