import type { JobQueue } from '@wa/core/jobs/queue';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { MetricsRepo } from './metrics.repo';

/**
 * The route template a request matched, with its mount path: `/api/admin/whatsapp/:id` for
 * `/api/admin/whatsapp/123`. Express keeps the matched route's own path (`/:id`) but not, once an
 * async handler has returned, where its router was mounted; the mount path is the request path less
 * as many trailing segments as the template has. 'unmatched' when no route matched.
 */
export function routeLabel(req: Pick<Request, 'originalUrl'> & { route?: { path?: unknown } }): string {
  const template = req.route?.path;
  if (typeof template !== 'string') return 'unmatched';
  const t = template.replace(/\/+$/, '');
  const segments = (req.originalUrl.split('?')[0] ?? '').replace(/\/+$/, '').split('/');
  const own = t ? t.split('/').length - 1 : 0;
  return `${segments.slice(0, segments.length - own).join('/')}${t}` || '/';
}

/** What the metrics read besides the database: this process's queue and WebSocket hub. */
export interface MetricsSources {
  repo: Pick<MetricsRepo, 'sessions' | 'messages' | 'workers' | 'webhookDeliveries'>;
  queue: Pick<JobQueue, 'counts'>;
  /** sockets connected to this API process's hub (null before the hub is attached) */
  sockets?: () => number | null;
  /** the embedded engine's own metrics (claim latency…), served with the API's (embedded mode) */
  engine?: Registry | null;
}

/**
 * The Prometheus metrics of one API process (names start with `wa_`). Figures that live in the
 * database (sessions by state and engine, messages by outcome, workers) are read at scrape time, so
 * every replica reports the same installation-wide values; request latency, imports and sockets
 * are this process's own. Its own registry, so two apps in one process (tests) never mix.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly http: Histogram<'method' | 'route' | 'status'>;
  private readonly imports: Histogram<'kind' | 'outcome'>;

  constructor(private readonly sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'wa_process_' });
    // prom-client names three gauges `…_total`, which promtool refuses (`_total` is a counter's);
    // their per-type siblings (`…_active_handles{type}` and so on) carry the same figures
    for (const kind of ['resources', 'handles', 'requests']) {
      this.registry.removeSingleMetric(`wa_process_nodejs_active_${kind}_total`);
    }
    this.http = new Histogram({
      name: 'wa_http_request_duration_seconds',
      help: 'API requests by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.imports = new Histogram({
      name: 'wa_import_duration_seconds',
      help: 'Phone number and proxy imports by kind and outcome',
      labelNames: ['kind', 'outcome'],
      buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
      registers,
    });
    new Gauge({
      name: 'wa_sessions',
      help: 'Saved WhatsApp accounts by state and engine',
      labelNames: ['state', 'engine'],
      registers,
      async collect() {
        this.reset();
        for (const s of await sources.repo.sessions()) this.set({ state: s.state, engine: s.engine }, s.n);
      },
    });
    new Gauge({
      name: 'wa_messages',
      help: 'Blast messages by outcome, all accounts and days (from the ledger; a failure receipt moves one from sent to failed)',
      labelNames: ['outcome'],
      registers,
      async collect() {
        for (const [outcome, n] of Object.entries(await sources.repo.messages())) this.set({ outcome }, n);
      },
    });
    new Gauge({
      name: 'wa_workers',
      help: 'Workers whose heartbeat is live',
      registers,
      async collect() {
        this.set((await sources.repo.workers()).live);
      },
    });
    new Gauge({
      name: 'wa_worker_accounts',
      help: 'Accounts held by a live worker under a live lease',
      registers,
      async collect() {
        this.set((await sources.repo.workers()).held);
      },
    });
    new Gauge({
      name: 'wa_queue_jobs',
      help: 'Jobs by state in the queue this process uses',
      labelNames: ['state'],
      registers,
      async collect() {
        for (const [state, n] of Object.entries(await sources.queue.counts())) this.set({ state }, n);
      },
    });
    new Gauge({
      name: 'wa_webhook_deliveries',
      help: 'Webhook deliveries pending (any age), and failed after their day of retries (created in the last 24 h)',
      labelNames: ['status'],
      registers,
      async collect() {
        for (const [status, n] of Object.entries(await sources.repo.webhookDeliveries())) this.set({ status }, n);
      },
    });
    new Gauge({
      name: 'wa_websocket_connections',
      help: "Live-event sockets connected to this process's hub",
      registers,
      collect() {
        this.set(sources.sockets?.() ?? 0);
      },
    });
  }

  /** The registry /metrics serves: the API's, with the embedded engine's when there is one. */
  withEngine(): Registry {
    return this.sources.engine ? Registry.merge([this.registry, this.sources.engine]) : this.registry;
  }

  /** Times every API request under its route template (never the raw path: ids would explode the labels). */
  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    const end = this.http.startTimer();
    res.on('finish', () => {
      end({ method: req.method, route: routeLabel(req), status: String(res.statusCode) });
    });
    next();
  };

  /** Wraps an import so its duration is observed, whether it succeeds or fails. */
  timeImport<A extends unknown[], R>(kind: string, run: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return async (...args: A) => {
      const end = this.imports.startTimer({ kind });
      try {
        const r = await run(...args);
        end({ outcome: 'ok' });
        return r;
      } catch (err) {
        end({ outcome: 'error' });
        throw err;
      }
    };
  }
}
