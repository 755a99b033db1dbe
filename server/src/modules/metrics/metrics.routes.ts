import { timingSafeEqual } from 'node:crypto';
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
    if (!sameToken(req.get('authorization') ?? '', `Bearer ${token}`)) {
      res.status(401).set('WWW-Authenticate', 'Bearer').json({ msg: 'A valid metrics token is required.' });
      return;
    }
    res.set('Content-Type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  return r;
}

/** A constant-time comparison, so the token cannot be guessed byte by byte from response times. */
function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
