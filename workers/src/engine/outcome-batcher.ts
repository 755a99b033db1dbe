import type { Db } from '@wa/core/db/client';
import type { Logger } from '@wa/core/logger';
import { type Outcome, type OutcomeInput, recordOutcomes } from './outcome.repo';

interface Waiting {
  input: OutcomeInput;
  resolve(outcome: Outcome | null): void;
  reject(err: unknown): void;
}

/** At most this many outcomes share one transaction. */
const MAX_BATCH = 64;

/** Batches in flight at once, each on its own connection: one fills while another commits. */
const MAX_IN_FLIGHT = 2;

/**
 * Records the blast outcomes of every account this worker holds, many in one statement: while one
 * batch is written, the outcomes that arrive meanwhile wait and go together in the next, so a
 * worker sending for many accounts at full speed pays one round trip, one plan and one WAL flush
 * per batch instead of per message (the commits, not the statements, were what limited it:
 * bench/README.md). Each blast awaits its own outcome before it sends again, so nothing is sent
 * before the outcome before it is committed; a worker that dies with a batch unwritten leaves
 * started claims, which the next holder logs as unknown (see settleAbandoned). Every row an
 * outcome writes belongs to its own account or target, so outcomes of different accounts never
 * wait on each other's locks. When a batch fails, its outcomes are tried again one by one, so one
 * account's error is its own.
 */
export class OutcomeBatcher {
  private queue: Waiting[] = [];
  private inFlight = 0;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  record(input: OutcomeInput): Promise<Outcome | null> {
    return new Promise((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.inFlight >= MAX_IN_FLIGHT || !this.queue.length) return;
    this.inFlight += 1;
    try {
      while (this.queue.length) {
        const batch = this.take();
        try {
          const results = await recordOutcomes(
            this.db,
            batch.map((w) => w.input),
            batch[0].input.timeZone,
          );
          for (const [i, w] of batch.entries()) w.resolve(results[i] ?? null);
        } catch (err) {
          if (batch.length === 1) {
            batch[0].reject(err);
            continue;
          }
          this.log.warn({ err, outcomes: batch.length }, 'a batch of outcomes failed; recording them one by one');
          for (const w of batch) {
            await recordOutcomes(this.db, [w.input], w.input.timeZone).then(([o]) => w.resolve(o ?? null), w.reject);
          }
        }
      }
    } finally {
      this.inFlight -= 1;
    }
  }

  /** The next batch: at most MAX_BATCH outcomes, one per account (a second waits for the next batch). */
  private take(): Waiting[] {
    const batch: Waiting[] = [];
    const accounts = new Set<number>();
    const rest: Waiting[] = [];
    for (const w of this.queue) {
      if (batch.length < MAX_BATCH && !accounts.has(w.input.accountId)) {
        accounts.add(w.input.accountId);
        batch.push(w);
      } else rest.push(w);
    }
    this.queue = rest;
    return batch;
  }
}
