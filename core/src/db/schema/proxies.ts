import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Proxies assigned to WhatsApp accounts (§3 Proxy); status is active, in use or nonactive. */
export const proxies = pgTable(
  'proxies',
  {
    id: serial('id').primaryKey(),
    value: text('value').notNull(),
    status: text('status').notNull().default('active'),
    countUse: integer('count_use').notNull().default(0),
    /** the last health check through the proxy (PROXY_CHECK_URL), its latency, and why it failed */
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    latencyMs: integer('latency_ms'),
    checkError: text('check_error'),
    /** failed checks in a row; PROXY_CHECK_FAILURES of them make the proxy nonactive */
    checkFailures: integer('check_failures').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('proxies_value_uq').on(t.value),
    // least-used active proxy on new-client, and the unUsed/used counters
    index('proxies_status_use_idx').on(t.status, t.countUse, t.id),
    index('proxies_count_use_idx').on(t.countUse),
  ],
);
