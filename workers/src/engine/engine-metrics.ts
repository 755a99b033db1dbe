import { Gauge, Histogram, Registry } from 'prom-client';

/**
 * The engine's own Prometheus metrics (names start with `wa_`), kept in this process: how long a
 * blast's claim of its next targets takes (the statement every message waits on when the database
 * is the bottleneck), and the sessions this process holds. Served by the API's /metrics in embedded
 * mode, and by a worker's own /metrics on WORKER_METRICS_PORT in scale-out mode.
 */
export class EngineMetrics {
  readonly registry = new Registry();
  readonly claim: Histogram<'batch'>;

  constructor(held: () => number) {
    const registers = [this.registry];
    this.claim = new Histogram({
      name: 'wa_claim_duration_seconds',
      help: "A blast's claim of its next targets (SKIP LOCKED), by claim size: 'ahead' at zero interval, 'one' when paced",
      labelNames: ['batch'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    new Gauge({
      name: 'wa_engine_sessions_held',
      help: 'WhatsApp sessions this engine process holds (logins in progress included)',
      registers,
      collect() {
        this.set(held());
      },
    });
  }

  /** Times a claim. */
  async timeClaim<T>(batch: 'ahead' | 'one', run: () => Promise<T>): Promise<T> {
    const end = this.claim.startTimer({ batch });
    try {
      return await run();
    } finally {
      end();
    }
  }
}
