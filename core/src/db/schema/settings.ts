import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The one settings row (§3 Setting), created with the §9 defaults by the first migration. */
export const settings = pgTable(
  'settings',
  {
    id: integer('id').primaryKey().default(1),
    intervalMin: integer('interval_min').notNull(),
    intervalMax: integer('interval_max').notNull(),
    price: integer('price').notNull(),
    bankNames: text('bank_names').notNull(),
    colors: text('colors').notNull(),
    referralPercent: integer('referral_percent').notNull().default(0),
    info: text('info').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('settings_single_row', sql`${t.id} = 1`),
    check('settings_referral_percent_range', sql`${t.referralPercent} between 0 and 100`),
  ],
);
