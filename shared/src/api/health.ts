import { healthResponse } from '../contract/health';
import { routes } from './define';

/** GET /api/health (public, for load balancers, docker compose and the dashboard's banner). */
export const HEALTH = routes('health', '/health', {
  get: {
    method: 'get',
    path: '/',
    summary: "Whether the API and the blasts run: 200 when 'ok', else 503 ('down' or 'degraded') with the same body",
    access: 'public',
    response: healthResponse,
  },
});
