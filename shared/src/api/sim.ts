import { routes } from './define';

/** /dev/sim: to be declared (issue 21). */
export const SIM = routes('monitor', '/dev/sim', {});
