import { sql } from 'drizzle-orm';
import type { Db } from '../core/src/db/client';

/**
 * What the in-process blast benchmarks (blast.ts, campaigns.ts) run on: the simulator made
 * instant (no latency, no failures, quick pairing), no logs, and BENCH_DATABASE_URL as the
 * harness's PostgreSQL when given (else embedded PGlite). Call before the harness starts.
 */
export function instantSimulator(): void {
  process.env.SIM_PAIR_DELAY_MS = '50';
  process.env.SIM_RESTORE_DELAY_MS = '10';
  process.env.SIM_SEND_LATENCY_MS = '0';
  process.env.SIM_SEND_FAIL_RATE = '0';
  process.env.LOG_LEVEL = 'silent';
  if (process.env.BENCH_DATABASE_URL) {
    process.env.TEST_DB = 'postgres';
    process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  }
}

/** Empty transactions a second from `clients` concurrent callers for `ms`: the database's own pace (the yardstick). */
export async function yardstick(db: Db, clients: number, ms: number): Promise<number> {
  let done = 0;
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        await db.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
        });
        done++;
      }
    }),
  );
  return Math.round(done / (ms / 1000));
}
