import { DEFAULT_ENGINE_SETTINGS } from '@wa/core/config-engine';
import type { EventBus } from '@wa/core/realtime/bus';
import type { Health, HealthReason, PartHealth, WorkersHealth } from '@wa/shared';
import type { HealthRepo } from './health.repo';

/**
 * All checks share one deadline this long. A load balancer's probe and the promise want the
 * whole answer within 2 s; the rest of the 2 s is margin for Express and a busy event loop.
 */
export const CHECK_DEADLINE_MS = 1500;

/**
 * A lease that ran out is flagged only after this many sweeps of the other workers (WA_SWEEP_MS
 * each): one sweep may start just before the lease runs out, the next claims the account.
 */
export const TAKEOVER_SWEEPS = 2;

/**
 * A probe still pending is joined by later checks for this long, then a fresh one is started: a
 * probe that never settles (a pg connect to a host that swallows packets has no timeout of its
 * own) must not hide the dependency's return for good.
 */
export const JOIN_PROBE_FOR_MS = 10_000;

export interface HealthOptions {
  /** the one deadline of every check (CHECK_DEADLINE_MS) */
  deadlineMs?: number;
  /** how long a pending probe is joined (JOIN_PROBE_FOR_MS) */
  joinForMs?: number;
  /** WA_SWEEP_MS of the workers, for the takeover grace (the engine's default when absent) */
  sweepMs?: number;
}

const TIMED_OUT = Symbol('timed out');

/**
 * GET /api/health: whether the API can serve (the database and, when used, Redis answer) and
 * whether blasts can run (a live worker, and a running loop for every account that is sending).
 * 'down' and 'degraded' both answer 503: a monitor alerts on either, and `reasons` says which.
 */
export class HealthService {
  /**
   * Probes still on their way, by name. A dependency that hangs (a pg pool connect to a host that
   * never answers, ioredis's offline queue) keeps its probe pending past the deadline; later checks
   * join it instead of adding another pooled connection or queued PING per poll.
   */
  private readonly inflight = new Map<string, { p: Promise<unknown>; since: number }>();
  private readonly deadlineMs: number;
  private readonly joinForMs: number;
  private readonly graceMs: number;

  constructor(
    private readonly repo: Pick<HealthRepo, 'ping' | 'workers'>,
    private readonly bus: Pick<EventBus, 'kind' | 'ping'>,
    opts: HealthOptions = {},
  ) {
    this.deadlineMs = opts.deadlineMs ?? CHECK_DEADLINE_MS;
    this.joinForMs = opts.joinForMs ?? JOIN_PROBE_FOR_MS;
    this.graceMs = TAKEOVER_SWEEPS * (opts.sweepMs ?? DEFAULT_ENGINE_SETTINGS.sweepMs);
  }

  async check(): Promise<Health> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), this.deadlineMs);
    });
    try {
      // in parallel: the slowest part, not their sum, bounds the answer
      const [database, redis, read] = await Promise.all([
        this.part('database', () => this.repo.ping(), expired),
        this.bus.kind === 'redis' ? this.part('redis', () => this.bus.ping(), expired) : null,
        this.within(
          this.once('workers', () => this.repo.workers(this.graceMs)),
          expired,
        ),
      ]);
      const workers = database.up && read !== TIMED_OUT && read !== null ? read : null;
      const reasons = reasonsFor(database, redis, workers);
      const down = !database.up || (redis !== null && !redis.up);
      return { status: down ? 'down' : reasons.length ? 'degraded' : 'ok', reasons, database, redis, workers };
    } finally {
      clearTimeout(timer);
    }
  }

  private async part(
    name: string,
    probe: () => Promise<void>,
    expired: Promise<typeof TIMED_OUT>,
  ): Promise<PartHealth> {
    const start = performance.now();
    const answer = await this.within(this.once(name, probe), expired);
    return { up: answer !== TIMED_OUT && answer !== null, ms: Math.round(performance.now() - start) };
  }

  /** The probe's value, null when it failed, TIMED_OUT when the deadline came first. */
  private within<T>(p: Promise<T>, expired: Promise<typeof TIMED_OUT>): Promise<T | null | typeof TIMED_OUT> {
    return Promise.race([p.catch(() => null), expired]);
  }

  /** Starts the probe unless one of that name is pending and young enough, which is joined instead. */
  private once<T>(name: string, probe: () => Promise<T>): Promise<T> {
    const pending = this.inflight.get(name);
    if (pending && performance.now() - pending.since < this.joinForMs) return pending.p as Promise<T>;
    // a probe that throws before its promise exists still counts as a failed answer
    const p = Promise.resolve().then(probe);
    const entry = { p, since: performance.now() };
    this.inflight.set(name, entry);
    const forget = () => {
      // an abandoned probe that settles late must not drop its successor
      if (this.inflight.get(name) === entry) this.inflight.delete(name);
    };
    // both branches handled: a probe that fails after the deadline is no unhandled rejection
    p.then(forget, forget);
    return p;
  }
}

/** The rules of docs/MONITORING.md, in the order the dashboard lists them. */
function reasonsFor(database: PartHealth, redis: PartHealth | null, workers: WorkersHealth | null): HealthReason[] {
  const reasons: HealthReason[] = [];
  if (!database.up) reasons.push('database_down');
  if (redis && !redis.up) reasons.push('redis_down');
  // the database is up but the workers read did not come back: blasts cannot be vouched for
  if (database.up && !workers) reasons.push('workers_unknown');
  if (workers) {
    if (workers.live === 0) reasons.push('no_worker');
    if (workers.unheld > 0) reasons.push('accounts_unheld');
    if (workers.stalled > 0) reasons.push('loops_stalled');
    if (workers.waiting_for.length > 0) reasons.push('workers_waiting');
  }
  return reasons;
}
