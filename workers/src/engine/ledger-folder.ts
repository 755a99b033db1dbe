import type { Db } from '@wa/core/db/client';
import type { DependencyMonitor } from '@wa/core/dependencies';
import { collectPoolCounts } from '@wa/core/ledger/pool-counts';
import { foldLedger, LEDGER_FOLD_MS } from '@wa/core/ledger/rollups';
import type { Logger } from '@wa/core/logger';

/**
 * Folds the ledger's closed days and hours into everybody's rollups and each user's running totals
 * (core/src/ledger/rollups.ts) and collects the pool's blast counts (pool-counts.ts), at the start
 * and every LEDGER_FOLD_MS. Every engine runs one; the
 * fold's advisory lock lets one of them fold at a time. A failure (the database away) is the
 * monitor's to tell; the next tick folds again, and until then reads take more of the rows.
 */
export class LedgerFolder {
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(
    private readonly deps: {
      db: Db;
      log: Logger;
      timeZone: string;
      monitor?: DependencyMonitor;
      foldMs?: number;
    },
  ) {}

  start(): void {
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.deps.foldMs ?? LEDGER_FOLD_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One fold; false when it did not run (another is running here or elsewhere, or it failed). */
  async tick(): Promise<boolean> {
    if (this.running) return false;
    this.running = true;
    try {
      const folded = await foldLedger(this.deps.db, this.deps.timeZone);
      // apart from the fold's transaction: a connection whose row this takes waits only for this statement
      await collectPoolCounts(this.deps.db);
      return folded;
    } catch (err) {
      const dep = await this.deps.monitor?.classify(err).catch(() => null);
      if (!dep) this.deps.log.warn({ err }, 'ledger fold failed; trying again at the next tick');
      return false;
    } finally {
      this.running = false;
    }
  }
}
