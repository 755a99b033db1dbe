import { bigint, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { messageTemplates, phoneNumbers } from './catalogue';
import { users } from './users';
import { whatsappAccounts } from './whatsapp';

/**
 * One row per message an account tried to deliver (§3 counters). A success carries the member's
 * fee and, when the member was referred, the referrer's share: every rupiah of income is a row.
 */
export const messageLogs = pgTable(
  'message_logs',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    whatsappId: integer('whatsapp_id').references(() => whatsappAccounts.id, { onDelete: 'set null' }),
    phoneNumberId: integer('phone_number_id').references(() => phoneNumbers.id, { onDelete: 'set null' }),
    templateId: integer('template_id').references(() => messageTemplates.id, { onDelete: 'set null' }),
    target: text('target').notNull(),
    status: text('status').notNull(),
    fee: integer('fee').notNull().default(0),
    referrerId: integer('referrer_id').references(() => users.id, { onDelete: 'set null' }),
    referralFee: integer('referral_fee').notNull().default(0),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('message_logs_user_created_idx').on(t.userId, t.createdAt),
    index('message_logs_user_status_idx').on(t.userId, t.status),
    index('message_logs_created_status_idx').on(t.createdAt, t.status),
    index('message_logs_whatsapp_idx').on(t.whatsappId),
    index('message_logs_referrer_idx').on(t.referrerId),
    index('message_logs_phone_idx').on(t.phoneNumberId),
  ],
);

/** Bonuses given by an admin (§3 Bonus). */
export const bonuses = pgTable(
  'bonuses',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    adminId: integer('admin_id').references(() => users.id, { onDelete: 'set null' }),
    nominal: bigint('nominal', { mode: 'number' }).notNull(),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('bonuses_user_created_idx').on(t.userId, t.createdAt), index('bonuses_created_idx').on(t.createdAt)],
);

/** Withdrawal requests (§3 Withdraw); the bank details are kept as they were when requested. */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    nominal: bigint('nominal', { mode: 'number' }).notNull(),
    status: text('status').notNull().default('requested'),
    accountName: text('account_name'),
    accountBank: text('account_bank'),
    accountNumber: text('account_number'),
    processedBy: integer('processed_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('withdrawals_user_created_idx').on(t.userId, t.createdAt),
    index('withdrawals_status_created_idx').on(t.status, t.createdAt),
  ],
);
