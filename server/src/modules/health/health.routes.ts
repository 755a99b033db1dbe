import { HEALTH } from '@wa/shared';
import { Router } from 'express';
import { bind } from '../../http/route';
import type { HealthService } from './health.service';

/**
 * GET /api/health (public, for load balancers, docker compose and the dashboard's banner): 200 when
 * all is well, else 503 with the same body; as declared in shared/src/api/health.ts.
 */
export function healthRoutes(health: HealthService): Router {
  const r = Router();
  bind(r, HEALTH.get, async ({ res }) => {
    const h = await health.check();
    // an answer about now: a cache in between must not replay an old one
    res.set('Cache-Control', 'no-store');
    if (h.status !== 'ok') res.status(503);
    return { ok: h.status === 'ok', ...h };
  });
  return r;
}
