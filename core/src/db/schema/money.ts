import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { messageTemplates, phoneNumbers } from './catalogue';
import { users } from './users';
import { whatsappAccounts } from './whatsapp';

/**
 * One row per message an account tried to deliver (§3 counters). `status` runs pending → sent
 * (WhatsApp accepted it) → delivered → read, or ends failed or unknown (the worker died while
 * sending). `fee` and `referral_fee` are what was paid for it: every rupiah of income is a row.
 * With settings' payout_on = 'delivered' the fee waits in `fee_due`/`referral_fee_due` until the
 * delivery receipt moves it into `fee` (or the undelivered window ends it unpaid): a due of 0 is
 * settled, so a message is paid at most once whoever settles it.
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
    /** the campaign the message was sent for (issue 22); null: the default pool */
    campaignId: integer('campaign_id'),
    /** the campaign's variant (its template) the message was sent with; null: the default pool */
    variantId: integer('variant_id'),
    target: text('target').notNull(),
    status: text('status').notNull(),
    fee: integer('fee').notNull().default(0),
    referrerId: integer('referrer_id').references(() => users.id, { onDelete: 'set null' }),
    referralFee: integer('referral_fee').notNull().default(0),
    /** a fee held until the delivery receipt (payout_on = 'delivered'); 0 once settled */
    feeDue: integer('fee_due').notNull().default(0),
    referralFeeDue: integer('referral_fee_due').notNull().default(0),
    error: text('error'),
    /** the text that was sent (placeholders filled in) */
    text: text('text'),
    /** WhatsApp's id of the sent message: receipts and revokes name it */
    waMessageId: text('wa_message_id'),
    /** receipts: when WhatsApp took the message, the target's phone got it, the target read it */
    sentAt: timestamp('sent_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    readAt: timestamp('read_at', { withTimezone: true }),
    /** when the member deleted the message for everyone (rule #1: the account is suspended) */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // Every index here is written again whenever a log row moves to a new version, and a blast
  // message's row is written up to four times (claim, outcome, delivered, read): only what reads
  // need. The counters read account_daily, not these. Receipts change no indexed column, so their
  // updates can stay on the page (HOT; the table keeps 10% of each page free for them).
  (t) => [
    index('message_logs_user_created_idx').on(t.userId, t.createdAt),
    index('message_logs_wa_message_idx').on(t.waMessageId),
    index('message_logs_created_idx').on(t.createdAt),
    // the foreign keys' set-null on a user's or a target's deletion
    index('message_logs_referrer_idx').on(t.referrerId).where(sql`${t.referrerId} is not null`),
    index('message_logs_phone_idx').on(t.phoneNumberId),
    index('message_logs_whatsapp_created_idx').on(t.whatsappId, t.createdAt),
    // the fees still waiting for a delivery receipt, oldest first (the undelivered window)
    index('message_logs_due_idx').on(t.createdAt).where(sql`${t.feeDue} > 0 or ${t.referralFeeDue} > 0`),
    // a campaign's report and replies (pool messages are not in it)
    index('message_logs_campaign_idx').on(t.campaignId, t.createdAt).where(sql`${t.campaignId} is not null`),
    // the log's search by the start of the target number (LIKE 'prefix%'), newest first, read from the
    // index alone (a target, its time and id are never updated, so receipts stay HOT)
    index('message_logs_target_idx').on(t.target.op('text_pattern_ops'), t.createdAt, t.id),
  ],
);

/**
 * An account's day (APP_TIMEZONE, the day the message was sent) in figures: what the counters,
 * balances, the report and the charts read instead of the message log. Only the account's own
 * holder writes its rows (its blast loop, its receipts, its opt-outs), in the statement that
 * changes the log, so totals are exact and no row is written by two accounts. `sent` counts
 * messages WhatsApp accepted (delivered and read ones included), `failed` the ones it refused or
 * reported failed. `whatsapp_id` has no foreign key: a deleted account's money stays counted.
 */
export const accountDaily = pgTable(
  'account_daily',
  {
    whatsappId: integer('whatsapp_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** who earned the referral shares of these messages */
    referrerId: integer('referrer_id').references(() => users.id, { onDelete: 'set null' }),
    sent: integer('sent').notNull().default(0),
    delivered: integer('delivered').notNull().default(0),
    read: integer('read').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    unknown: integer('unknown').notNull().default(0),
    optout: integer('optout').notNull().default(0),
    /** the member's fees paid for these messages */
    income: bigint('income', { mode: 'number' }).notNull().default(0),
    /** the referrer's shares paid for them */
    referralIncome: bigint('referral_income', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.whatsappId, t.day] }),
    index('account_daily_user_day_idx').on(t.userId, t.day),
    index('account_daily_referrer_day_idx').on(t.referrerId, t.day),
    // the report's order (newest day first, then the account): a page is cut from the index
    index('account_daily_day_account_idx').on(t.day.desc(), t.whatsappId),
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

/**
 * Everybody's money totals that the admin's balance reads (issue 23), kept by migration 0022's
 * statement triggers on bonuses and withdrawals, so the `all` balance never sums a table that grows
 * with the history: `bonuses` (every bonus's nominal) and `withdrawals_held` (the nominal of the
 * withdrawals that hold money: requested or accepted).
 */
export const moneyTotals = pgTable('money_totals', {
  name: text('name').primaryKey(),
  total: bigint('total', { mode: 'number' }).notNull().default(0),
});

/**
 * Messages the targets sent to an account (replies and button presses). One that asks to stop
 * (a keyword of settings' optout_keywords, or a template's stop button) opts its number out.
 */
export const incomingMessages = pgTable(
  'incoming_messages',
  {
    id: serial('id').primaryKey(),
    whatsappId: integer('whatsapp_id').references(() => whatsappAccounts.id, { onDelete: 'set null' }),
    phoneNumberId: integer('phone_number_id').references(() => phoneNumbers.id, { onDelete: 'set null' }),
    /** the sender's number (62…) */
    sender: text('sender').notNull(),
    text: text('text').notNull().default(''),
    /** the id of the template button pressed, for a button reply */
    buttonId: text('button_id'),
    optout: boolean('optout').notNull().default(false),
    /** the campaign whose message this answers (issue 22): a reply of that campaign; null: none */
    campaignId: integer('campaign_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('incoming_messages_whatsapp_idx').on(t.whatsappId, t.createdAt),
    index('incoming_messages_sender_idx').on(t.sender),
    index('incoming_messages_campaign_idx').on(t.campaignId, t.id).where(sql`${t.campaignId} is not null`),
  ],
);
