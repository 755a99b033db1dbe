import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sameSecret } from '@wa/core/same-secret';
import type { Registry } from 'prom-client';

/**
 * A worker's own GET /metrics (WORKER_METRICS_PORT), for Prometheus to scrape each worker's engine
 * metrics: only for `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise, compared in constant
 * time), and nothing else is served (404).
 */
export async function serveWorkerMetrics(
  registry: Registry,
  opts: { port: number; token: string; host?: string },
): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const reply = (status: number, body: string, type = 'application/json') => {
      res.statusCode = status;
      res.setHeader('Content-Type', type);
      res.end(body);
    };
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      return reply(404, JSON.stringify({ msg: 'Not found' }));
    }
    if (!sameSecret(req.headers.authorization ?? '', `Bearer ${opts.token}`)) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      return reply(401, JSON.stringify({ msg: 'A valid metrics token is required.' }));
    }
    registry.metrics().then(
      (text) => reply(200, text, registry.contentType),
      () => reply(500, JSON.stringify({ msg: 'Metrics could not be read.' })),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
