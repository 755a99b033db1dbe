import { z } from 'zod';

/** One part's answer: whether it is up and how long it took to say so. */
export const partHealth = z.object({ up: z.boolean(), ms: z.number().int().describe('milliseconds') });
export type PartHealth = z.infer<typeof partHealth>;

/**
 * Why the health check is not 'ok', as codes a script can match and the dashboard words for people
 * (docs/MONITORING.md lists the exact rules).
 */
export const HEALTH_REASONS = [
  'database_down',
  'redis_down',
  'workers_unknown',
  'no_worker',
  'accounts_unheld',
  'loops_stalled',
  'workers_waiting',
] as const;
export type HealthReason = (typeof HEALTH_REASONS)[number];

/** What the database says of the workers and of the loops they should run. */
export const workersHealth = z.object({
  live: z
    .number()
    .int()
    .describe("workers whose heartbeat has not run out (in embedded mode the API process's own engine is one)"),
  accounts: z.number().int().describe('accounts held by a worker under a live lease'),
  sending: z
    .number()
    .int()
    .describe("accounts whose blast is 'sending' (a scheduled one included): a loop should run for each"),
  unheld: z
    .number()
    .int()
    .describe(
      "accounts 'sending' that no worker holds: no holder at all, or a lease that ran out more than two sweeps (2 × WA_SWEEP_MS) ago, longer than a takeover takes",
    ),
  stalled: z
    .number()
    .int()
    .describe(
      "accounts 'sending' that a live worker holds but whose loop is not running, summed over the live workers' last heartbeats",
    ),
  waiting_for: z
    .array(z.string())
    .describe(
      "the dependencies live workers' loops wait for at their last heartbeat ('database', 'redis'); empty when none",
    ),
});
export type WorkersHealth = z.infer<typeof workersHealth>;

/** What the health check finds (GET /api/health answers it with `ok`). */
export const healthCheck = z.object({
  status: z
    .enum(['ok', 'degraded', 'down'])
    .describe(
      "'ok' (200): all is well; 'down' (503): the database or Redis does not answer; 'degraded' (503): both answer but blasts cannot run as they should (see reasons)",
    ),
  reasons: z
    .array(z.enum(HEALTH_REASONS))
    .describe(
      "why it is not 'ok', empty when it is: database_down, redis_down (no answer within the deadline); workers_unknown (the database answered its ping but not the workers read); no_worker (no live worker heartbeat); accounts_unheld (workers.unheld > 0); loops_stalled (workers.stalled > 0); workers_waiting (a live worker waits for a dependency)",
    ),
  database: partHealth,
  redis: partHealth.nullable().describe('null without REDIS_URL: jobs and events then stay in the API process'),
  workers: workersHealth.nullable().describe('unknown (null) while the database is down or did not answer in time'),
});
export type Health = z.infer<typeof healthCheck>;

/** GET /api/health: 200 when `ok`, else 503 with the same body. */
export const healthResponse = healthCheck.extend({ ok: z.boolean().describe("status is 'ok'") });
export type HealthResponse = z.infer<typeof healthResponse>;
