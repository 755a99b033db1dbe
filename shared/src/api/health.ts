import { routes } from './define';

/** /health: to be declared (issue 21). */
export const HEALTH = routes('health', '/health', {});
