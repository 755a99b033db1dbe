import { sameSecret } from '@wa/core/same-secret';
import { Router } from 'express';
import type { Metrics } from './metrics';

/**
 * GET /metrics (Prometheus text): only with METRICS_TOKEN set, and only for
 * `Authorization: Bearer <METRICS_TOKEN>`; without the setting it does not exist (404).
 */
export function metricsRoutes(metrics: Metrics, token: string | null): Router {
  const r = Router();
  r.get('/', async (req, res) => {
    if (!token) {
      res.status(404).json({ msg: 'Not found' });
      return;
    }
    if (!sameSecret(req.get('authorization') ?? '', `Bearer ${token}`)) {
      res.status(401).set('WWW-Authenticate', 'Bearer').json({ msg: 'A valid metrics token is required.' });
      return;
    }
    const registry = metrics.withEngine();
    res.set('Content-Type', registry.contentType).send(await registry.metrics());
  });
  return r;
}
