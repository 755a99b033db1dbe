import { routes } from './define';

/** /admin/phonenumber: to be declared (issue 21). */
export const PHONE_NUMBERS = routes('phone-numbers', '/admin/phonenumber', {});
