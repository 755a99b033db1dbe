import { Router } from 'express';
import type { HealthService } from './health.service';

/**
 * GET /api/health (public, for load balancers, docker compose and the dashboard's banner): 200 when
 * all is well, else 503 with the same body.
 */
export function healthRoutes(health: HealthService): Router {
  const r = Router();
  r.get('/', async (_req, res) => {
    const h = await health.check();
    // an answer about now: a cache in between must not replay an old one
    res.set('Cache-Control', 'no-store');
    res.status(h.status === 'ok' ? 200 : 503).json({ ok: h.status === 'ok', ...h });
  });
  return r;
}
