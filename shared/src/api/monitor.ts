import { routes } from './define';

/** /dev/monitor: to be declared (issue 21). */
export const MONITOR = routes('monitor', '/dev/monitor', {});
