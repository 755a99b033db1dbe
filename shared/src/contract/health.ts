import { z } from 'zod';

/** One part's answer: whether it is up and how long it took to say so. */
export const partHealth = z.object({ up: z.boolean(), ms: z.number().int().describe('milliseconds') });
export type PartHealth = z.infer<typeof partHealth>;

/** What the health check finds (GET /api/health answers it with `ok`). */
export const healthCheck = z.object({
  status: z
    .enum(['ok', 'down'])
    .describe("'ok': everything the API needs answers; 'down': the database or Redis does not (503)"),
  database: partHealth,
  redis: partHealth.nullable().describe('null without REDIS_URL: jobs and events then stay in the API process'),
  workers: z
    .object({ live: z.number().int(), accounts: z.number().int() })
    .nullable()
    .describe('live workers and the accounts they hold; unknown (null) while the database is down'),
});
export type Health = z.infer<typeof healthCheck>;

/** GET /api/health: 200 when `ok`, else 503 with the same body. */
export const healthResponse = healthCheck.extend({ ok: z.boolean().describe("status is 'ok'") });
