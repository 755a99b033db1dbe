import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Proxies assigned to WhatsApp accounts (§3 Proxy); status is active, in use or nonactive. */
export const proxies = pgTable(
  'proxies',
  {
    id: serial('id').primaryKey(),
    value: text('value').notNull(),
    status: text('status').notNull().default('active'),
    countUse: integer('count_use').notNull().default(0),
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
