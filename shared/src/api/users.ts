import { routes } from './define';

/** /admin/users: to be declared (issue 21). */
export const USERS = routes('users', '/admin/users', {});
