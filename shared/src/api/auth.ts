import { routes } from './define';

/** /auth: to be declared (issue 21). */
export const AUTH = routes('auth', '/auth', {});
