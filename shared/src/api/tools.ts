import { routes } from './define';

/** /admin/generator and /admin/validator: to be declared (issue 21). */
export const GENERATOR = routes('generator', '/admin/generator', {});
export const VALIDATOR = routes('validator', '/admin/validator', {});
