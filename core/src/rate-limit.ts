/**
 * Counts attempts per key in a fixed window, in memory. Enough for one API process; behind
 * several replicas each keeps its own count (a shared store is a later concern). `take` checks and
 * counts in one synchronous step, so a burst of concurrent requests cannot all pass the check
 * before any of them is counted: count first, then do the slow work (a password check).
 */
export class AttemptLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `key` may try again, or 0 when it is not blocked. */
  retryAfter(key: string): number {
    const entry = this.hits.get(key);
    if (!entry) return 0;
    const now = this.now();
    if (entry.resetAt <= now) {
      this.hits.delete(key);
      return 0;
    }
    return entry.count >= this.max ? Math.ceil((entry.resetAt - now) / 1000) : 0;
  }

  /** Attempts counted for `key` in its current window. */
  count(key: string): number {
    const entry = this.hits.get(key);
    return entry && entry.resetAt > this.now() ? entry.count : 0;
  }

  /** Counts an attempt for `key`; the attempts counted in its window, this one included. */
  hit(key: string): number {
    const now = this.now();
    const entry = this.hits.get(key);
    if (!entry || entry.resetAt <= now) {
      if (this.hits.size > 100_000) this.sweep(now);
      this.hits.set(key, { count: 1, resetAt: now + this.windowMs });
      return 1;
    }
    entry.count += 1;
    return entry.count;
  }

  /**
   * Counts an attempt for `key` unless it is blocked: 0 when counted (go ahead), else the seconds
   * to wait (nothing counted). Check and count happen with no await between them.
   */
  take(key: string): number {
    const wait = this.retryAfter(key);
    if (wait === 0) this.hit(key);
    return wait;
  }

  /** Takes back one attempt of `key` (one taken that turned out not to count, e.g. a right password). */
  release(key: string): void {
    const entry = this.hits.get(key);
    if (!entry) return;
    entry.count -= 1;
    if (entry.count <= 0) this.hits.delete(key);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private sweep(now: number): void {
    for (const [k, v] of this.hits) if (v.resetAt <= now) this.hits.delete(k);
  }
}
