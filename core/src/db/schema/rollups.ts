import { bigint, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * The ledger's rollups (issue 23): what the dashboards' charts and the everybody (`all`) figures
 * read, so that none of them reads the message log or a scope's whole history. See
 * core/src/ledger/rollups.ts for who writes them and how they are proved.
 */

/**
 * An account's hour (the hour of the message's sending, on APP_TIMEZONE's clock) in figures, as its
 * day row is for the day: written by the account's holder in the statement that writes the day row,
 * so no two accounts ever wait on one row. `sent` counts messages WhatsApp accepted (delivered and
 * read ones included). Kept for the charts' week (HOURLY_KEEP_DAYS); older rows are pruned.
 */
export const accountHourly = pgTable(
  'account_hourly',
  {
    whatsappId: integer('whatsapp_id').notNull(),
    /** the start of the local hour, as an instant */
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sent: integer('sent').notNull().default(0),
    delivered: integer('delivered').notNull().default(0),
    failed: integer('failed').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.whatsappId, t.hour] }),
    // a member's chart: their accounts' hours of the week
    index('account_hourly_user_hour_idx').on(t.userId, t.hour),
    // the fold: every account's hours since a time
    index('account_hourly_hour_idx').on(t.hour),
  ],
);

/**
 * Everybody's day, folded from the day rows (account_daily) of the days the fold has closed (up to
 * `ledger_folds.cold_through`); later days are read from the day rows themselves. `accounts`: how
 * many day rows the day has (the report's rows).
 */
export const ledgerDays = pgTable('ledger_days', {
  day: date('day', { mode: 'string' }).primaryKey(),
  accounts: integer('accounts').notNull().default(0),
  sent: bigint('sent', { mode: 'number' }).notNull().default(0),
  delivered: bigint('delivered', { mode: 'number' }).notNull().default(0),
  read: bigint('read', { mode: 'number' }).notNull().default(0),
  failed: bigint('failed', { mode: 'number' }).notNull().default(0),
  unknown: bigint('unknown', { mode: 'number' }).notNull().default(0),
  optout: bigint('optout', { mode: 'number' }).notNull().default(0),
  income: bigint('income', { mode: 'number' }).notNull().default(0),
  referralIncome: bigint('referral_income', { mode: 'number' }).notNull().default(0),
});

/**
 * A user's hour (their accounts' hour rows summed; user 0 is everybody), folded from account_hourly
 * for the hours the fold has closed (up to `ledger_folds.hours_through`) within the kept week.
 */
export const ledgerHours = pgTable(
  'ledger_hours',
  {
    userId: integer('user_id').notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    sent: bigint('sent', { mode: 'number' }).notNull().default(0),
    delivered: bigint('delivered', { mode: 'number' }).notNull().default(0),
    failed: bigint('failed', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.hour] })],
);

/**
 * A user's running totals over the closed days (up to `ledger_folds.cold_through`): their accounts'
 * figures and the referral shares they earned. A user's counter adds the days after it from the day
 * rows. User 0 is everybody.
 */
export const ledgerTotals = pgTable('ledger_totals', {
  userId: integer('user_id').primaryKey(),
  sent: bigint('sent', { mode: 'number' }).notNull().default(0),
  failed: bigint('failed', { mode: 'number' }).notNull().default(0),
  income: bigint('income', { mode: 'number' }).notNull().default(0),
  /** the referral shares this user earned (everybody: all referral shares paid) */
  referralIncome: bigint('referral_income', { mode: 'number' }).notNull().default(0),
});

/** How far the fold has gone: one row per fold (`ledger`). */
export const ledgerFolds = pgTable('ledger_folds', {
  name: text('name').primaryKey(),
  /** days up to this one are in ledger_days and ledger_totals */
  coldThrough: date('cold_through', { mode: 'string' }).notNull(),
  /** hours up to this one (its start) are in ledger_hours */
  hoursThrough: timestamp('hours_through', { withTimezone: true }).notNull(),
  foldedAt: timestamp('folded_at', { withTimezone: true }).notNull().defaultNow(),
});
