import type { EventBus } from '@wa/core/realtime/bus';
import type { Health, PartHealth } from '@wa/shared';
import type { HealthRepo } from './health.repo';

/** No check may hold the answer longer than this: a load balancer's probe must not hang. */
export const CHECK_TIMEOUT_MS = 2000;

/**
 * GET /api/health: which parts are up. The API process is healthy when the database and (when it
 * is used) Redis answer; workers run elsewhere and are reported, not required, since an API with
 * no worker still serves the dashboard and queues the jobs for the next one.
 */
export class HealthService {
  constructor(
    private readonly repo: Pick<HealthRepo, 'ping' | 'workers'>,
    private readonly bus: Pick<EventBus, 'kind' | 'ping'>,
    private readonly timeoutMs = CHECK_TIMEOUT_MS,
  ) {}

  async check(): Promise<Health> {
    const [database, redis] = await Promise.all([
      this.part(() => this.repo.ping()),
      this.bus.kind === 'redis' ? this.part(() => this.bus.ping()) : null,
    ]);
    const workers = database.up ? await this.bounded(this.repo.workers()).catch(() => null) : null;
    const up = database.up && (redis === null || redis.up);
    return { status: up ? 'ok' : 'down', database, redis, workers };
  }

  private async part(probe: () => Promise<void>): Promise<PartHealth> {
    const start = performance.now();
    const up = await this.bounded(probe()).then(
      () => true,
      () => false,
    );
    return { up, ms: Math.round(performance.now() - start) };
  }

  private bounded<T>(p: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), this.timeoutMs);
    });
    return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
  }
}
