import { Router } from 'express';
import type { HealthService } from './health.service';

/** GET /api/health (public, for load balancers and docker compose): 200 when the API can serve, else 503. */
export function healthRoutes(health: HealthService): Router {
  const r = Router();
  r.get('/', async (_req, res) => {
    const h = await health.check();
    res.status(h.status === 'ok' ? 200 : 503).json({ ok: h.status === 'ok', ...h });
  });
  return r;
}
