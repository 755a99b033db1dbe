import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Target phone numbers (§3 Phone number), normalised to the 62 prefix. */
export const phoneNumbers = pgTable(
  'phone_numbers',
  {
    id: serial('id').primaryKey(),
    number: text('number').notNull(),
    name: text('name').notNull().default(''),
    status: text('status').notNull().default('active'),
    inUse: integer('in_use').notNull().default(0),
    /**
     * the account whose blast claimed the number (in_use = 1) and has not recorded the send yet.
     * Not indexed, so a claim changes no index (a HOT update); a new holder finds a dead one's
     * claims through phone_numbers_unblasted_idx, since a claimed number is not sent yet.
     */
    claimedBy: integer('claimed_by'),
    /** the claim's send may have begun: a dead holder's started claim is logged unknown, the others released */
    claimStarted: boolean('claim_started').notNull().default(false),
    countSuccess: integer('count_success').notNull().default(0),
    countFail: integer('count_fail').notNull().default(0),
    lastSent: timestamp('last_sent', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // text_pattern_ops: the same index serves equality and number-prefix search on any collation
    uniqueIndex('phone_numbers_number_uq').on(t.number.op('text_pattern_ops')),
    // the blast claims the next active number not yet sent to: partial index keeps that cheap
    index('phone_numbers_unblasted_idx').on(t.id).where(sql`${t.status} = 'active' and ${t.lastSent} is null`),
    index('phone_numbers_status_idx').on(t.status, t.id),
    // name search is a case-insensitive prefix match, served by this index
    index('phone_numbers_name_prefix_idx').on(sql`lower(${t.name}) text_pattern_ops`),
  ],
);

export interface TemplateButton {
  id: string;
  title: string;
  url: string;
  type: 'reply_button' | 'call_button' | 'url_button' | 'stop_button';
}

/** Message templates (§3 Message template): media URL, HTML caption and its WhatsApp markup. */
export const messageTemplates = pgTable(
  'message_templates',
  {
    id: serial('id').primaryKey(),
    media: text('media'),
    text: text('text').notNull().default(''),
    textWa: text('text_wa').notNull().default(''),
    button: jsonb('button').$type<TemplateButton[]>().notNull().default([]),
    status: text('status').notNull().default('active'),
    countUse: integer('count_use').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('message_templates_status_use_idx').on(t.status, t.countUse)],
);

/**
 * How often each account sent each template. A template's use count is its `count_use` (uses
 * before this table) plus these rows; an account's blast takes the active template it used least.
 * Only the account's own blast loop writes its rows, so sends of different accounts never wait on
 * one template row. `whatsapp_id` has no foreign key: a deleted account's uses stay counted.
 */
export const templateUses = pgTable(
  'template_uses',
  {
    templateId: integer('template_id')
      .notNull()
      .references(() => messageTemplates.id, { onDelete: 'cascade' }),
    whatsappId: integer('whatsapp_id').notNull(),
    uses: integer('uses').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.templateId, t.whatsappId] })],
);

/**
 * Exact row counts and a change version per large table, kept by statement-level triggers
 * (migration 0002), so lists show "Page X of Y" without counting a million rows each time.
 */
export const tableStats = pgTable('table_stats', {
  name: text('name').primaryKey(),
  rowCount: bigint('row_count', { mode: 'number' }).notNull().default(0),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});
