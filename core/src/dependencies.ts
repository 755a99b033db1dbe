import type { Logger } from './logger';

/** What a process depends on and can lose for a while: its database and (scale-out mode) Redis. */
export type Dependency = 'database' | 'redis';

/** What each dependency's outage is shown as, on an account's row and in its live events. */
export const WAITING_TEXTS: Record<Dependency, string> = {
  database: 'Menunggu database…',
  redis: 'Menunggu Redis…',
};

/** SQLSTATE classes and codes that say the server (not the statement) is the problem. */
const PG_CONNECTION_CLASS = '08';
const PG_TRANSIENT_CODES = new Set([
  '57P01', // admin_shutdown: a fast shutdown or a restart
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '53300', // too_many_connections
]);

/** SQLSTATEs of a statement that lost a race: the database is fine, the work is tried again. */
const PG_RETRY_CODES = new Set(['40001', '40P01']);

/** Socket errors of a connection that went away or never came. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** Messages node-postgres and ioredis throw for a connection that ended (they carry no code). */
const PG_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end',
];
const REDIS_MESSAGES = ['Connection is closed', "Stream isn't writeable", 'Reached the max retries per request limit'];

/** The bus says Redis is not there (fails at once rather than queueing: see RedisBus.publish). */
export class BusDownError extends Error {
  constructor(message = 'Redis is not connected') {
    super(message);
    this.name = 'BusDownError';
  }
}

/**
 * Which dependency an error says is down, from its shape alone (walking `cause`, where drizzle puts
 * the driver's error); null when the error is about the work itself (a bug, a constraint, bad data).
 * A socket error without a telling name is counted as the database's, the usual peer of a query.
 */
export function infraErrorOf(err: unknown): Dependency | null {
  for (let e: unknown = err, depth = 0; e && depth < 6; depth++) {
    if (typeof e !== 'object') break;
    const x = e as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown; severity?: unknown };
    // a FATAL error ends the server session (a refused or terminated connection), never the statement alone
    if (x.severity === 'FATAL' || x.severity === 'PANIC') return 'database';
    const name = typeof x.name === 'string' ? x.name : '';
    const code = typeof x.code === 'string' ? x.code : '';
    const message = typeof x.message === 'string' ? x.message : '';
    if (name === 'BusDownError' || name === 'MaxRetriesPerRequestError') return 'redis';
    if (REDIS_MESSAGES.some((m) => message.includes(m))) return 'redis';
    if (code.startsWith(PG_CONNECTION_CLASS) && code.length === 5) return 'database';
    if (PG_TRANSIENT_CODES.has(code) || PG_RETRY_CODES.has(code)) return 'database';
    if (PG_MESSAGES.some((m) => message.includes(m))) return 'database';
    if (SOCKET_CODES.has(code)) return 'database';
    e = x.cause;
  }
  return null;
}

/** How long one probe may take before its dependency counts as down. */
const PROBE_TIMEOUT_MS = 2000;
/** While something is down, the probes run this often (the waiting loops resume within it). */
const PROBE_EVERY_MS = 1000;
/** A dependency still down is told to the log again this often (one line, not one per attempt). */
const REMIND_EVERY_MS = 60_000;

interface DownState {
  since: number;
  told: number;
  cause: string;
}

/**
 * The process's view of its dependencies: loops that fail on an infrastructure error ask it which
 * dependency is down and wait until it is back; it probes (one probe at a time for the whole
 * process, however many loops wait), logs each outage once when it begins, every minute while it
 * lasts and once when it ends, and says what the process waits for (the worker's heartbeat and
 * GET /api/health report it).
 */
export class DependencyMonitor {
  private readonly down = new Map<Dependency, DownState>();
  private probing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private waiters: Array<() => void> = [];
  private closed = false;

  constructor(
    private readonly probes: Partial<Record<Dependency, () => Promise<unknown>>>,
    private readonly log: Logger,
    private readonly everyMs = PROBE_EVERY_MS,
  ) {}

  /** The dependency this process waits for now (the database first), or null. */
  get waitingFor(): Dependency | null {
    if (this.down.has('database')) return 'database';
    if (this.down.has('redis')) return 'redis';
    return null;
  }

  /** Whether `dep` is believed up (nothing said otherwise since its last probe). */
  isUp(dep: Dependency): boolean {
    return !this.down.has(dep);
  }

  /**
   * An operation failed with `err`: which dependency it says is down (from the error's shape, or
   * else by probing now), or null when every dependency answers and the error is the work's own.
   */
  async classify(err: unknown): Promise<Dependency | null> {
    const shaped = infraErrorOf(err);
    // a serialization failure or a deadlock is tried again at once: nothing is down
    if (shaped && !lostARace(err)) this.markDown(shaped, err);
    if (shaped) return shaped;
    await this.probeAll();
    return this.waitingFor;
  }

  /** Something failed talking to `dep` (a publish, a queue call): probing begins, logged once. */
  markDown(dep: Dependency, err: unknown): void {
    if (this.closed || !this.probes[dep]) return;
    if (!this.down.has(dep)) {
      const cause = describe(err);
      this.down.set(dep, { since: Date.now(), told: Date.now(), cause });
      this.log.error({ dependency: dep, cause }, `${dep} unreachable; waiting for it`);
    }
    this.schedule();
  }

  /** Resolves once nothing is down (at once when nothing is); `cancelled` ends the wait early. */
  async whenUp(cancelled: () => boolean = () => false): Promise<void> {
    while (this.down.size && !cancelled() && !this.closed) {
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        this.schedule();
      });
    }
  }

  /** Wakes every waiter (a stopping loop's wait ends at once). */
  wakeAll(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const resolve of w) resolve();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.wakeAll();
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.probeAll().then(() => {
        if (this.down.size) this.schedule();
        // every waiter looks again: resolved ones leave, the others queue up for the next probe
        this.wakeAll();
      });
    }, this.everyMs);
    this.timer.unref();
  }

  /** Probes every dependency once (one probe round at a time for the process). */
  private probeAll(): Promise<void> {
    this.probing ??= (async () => {
      const entries = Object.entries(this.probes) as Array<[Dependency, () => Promise<unknown>]>;
      await Promise.all(entries.map(([dep, probe]) => this.probeOne(dep, probe)));
    })().finally(() => {
      this.probing = null;
    });
    return this.probing;
  }

  private async probeOne(dep: Dependency, probe: () => Promise<unknown>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const ok = await Promise.race([
      probe().then(
        () => true,
        (err: unknown) => err,
      ),
      new Promise<Error>((resolve) => {
        timer = setTimeout(() => resolve(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    const state = this.down.get(dep);
    if (ok === true) {
      if (state) {
        this.down.delete(dep);
        this.log.info({ dependency: dep, downMs: Date.now() - state.since }, `${dep} reachable again`);
      }
      return;
    }
    if (!state) {
      const cause = describe(ok);
      this.down.set(dep, { since: Date.now(), told: Date.now(), cause });
      this.log.error({ dependency: dep, cause }, `${dep} unreachable; waiting for it`);
    } else if (Date.now() - state.told >= REMIND_EVERY_MS) {
      state.told = Date.now();
      this.log.error(
        { dependency: dep, cause: describe(ok), downMs: Date.now() - state.since },
        `${dep} still unreachable`,
      );
    }
  }
}

function lostARace(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 6; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && PG_RETRY_CODES.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * An error's message fit to show its owner: a failed query's own message carries the statement and
 * its parameters, so the driver's cause is told instead.
 */
export function errorText(err: unknown): string {
  let e: unknown = err;
  for (let depth = 0; depth < 6 && isQueryError(e); depth++) e = (e as { cause?: unknown }).cause;
  if (isQueryError(e) || e === undefined) return 'a database statement failed';
  const message = typeof e === 'object' && e !== null ? (e as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : String(e);
}

/**
 * drizzle's wrapper of a failed statement, whose own message carries the parameters; not the
 * driver's error it wraps, which names its query too (PGlite) but says only what went wrong.
 */
function isQueryError(e: unknown): boolean {
  return typeof e === 'object' && e !== null && 'query' in e && !('severity' in e) && !('code' in e);
}

/** One line saying why: the error's code and message, and its cause's, without a stack. */
function describe(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    if (!(e instanceof Error)) {
      parts.push(String(e));
      break;
    }
    const code = (e as { code?: unknown }).code;
    // drizzle's message carries the query and its parameters: only the driver's cause is told
    if (!('query' in e)) parts.push(typeof code === 'string' && code ? `${code} ${e.message}` : e.message);
    e = (e as { cause?: unknown }).cause;
  }
  return parts.join(' ← ') || 'unknown';
}

/**
 * Runs `attempt` until it succeeds, waiting out an outage of what it needs (a process that starts
 * while its database is still starting, or away): told once when the wait begins and once a minute
 * while it lasts. An error that is not an outage is thrown at once.
 */
export async function untilReachable<T>(
  what: string,
  attempt: () => Promise<T>,
  log: Logger,
  everyMs = 2000,
): Promise<T> {
  let since = 0;
  let told = 0;
  for (;;) {
    try {
      const value = await attempt();
      if (since) log.info({ dependency: what, downMs: Date.now() - since }, `${what} reachable; starting`);
      return value;
    } catch (err) {
      if (!infraErrorOf(err)) throw err;
      if (!since) since = Date.now();
      if (Date.now() - told >= REMIND_EVERY_MS) {
        told = Date.now();
        log.error({ dependency: what, cause: describe(err) }, `${what} unreachable at start; waiting for it`);
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }
}
