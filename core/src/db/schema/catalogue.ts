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
import { campaigns } from './campaigns';

/**
 * Target phone numbers (§3 Phone number), normalised to the 62 prefix. A row with a `campaign_id`
 * is that campaign's target (issue 22): the same number may be a target of several campaigns and
 * of the default pool (campaign_id null), once in each. The phone number screens and the default
 * blast see the pool only.
 */
export const phoneNumbers = pgTable(
  'phone_numbers',
  {
    id: serial('id').primaryKey(),
    /** the campaign whose target this is; null: the default pool. Never changes. */
    campaignId: integer('campaign_id').references(() => campaigns.id, { onDelete: 'cascade' }),
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
    // (the pool's numbers; a campaign's are unique within it)
    uniqueIndex('phone_numbers_number_uq').on(t.number.op('text_pattern_ops')).where(sql`${t.campaignId} is null`),
    uniqueIndex('phone_numbers_campaign_number_uq').on(t.campaignId, t.number).where(sql`${t.campaignId} is not null`),
    // a number's rows in every campaign (an opt-out, a reply's campaign): by number alone
    index('phone_numbers_campaign_by_number_idx').on(t.number).where(sql`${t.campaignId} is not null`),
    // the blast claims the next active number not yet sent to, of the pool (campaign_id is null)
    // or of one campaign: partial index keeps that cheap
    index('phone_numbers_unblasted_idx')
      .on(t.campaignId, t.id)
      .where(sql`${t.status} = 'active' and ${t.lastSent} is null`),
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

/**
 * Message templates (§3 Message template): media URL, HTML caption and its WhatsApp markup. A row
 * with a `campaign_id` is one of that campaign's variants (issue 22), sent in proportion to its
 * `weight` once approved (`approved_at`); the template screens and the default blast see the rows
 * without a campaign only.
 */
export const messageTemplates = pgTable(
  'message_templates',
  {
    id: serial('id').primaryKey(),
    /** the campaign this variant belongs to; null: a template of the default pool */
    campaignId: integer('campaign_id').references(() => campaigns.id, { onDelete: 'cascade' }),
    /** a variant's share of its campaign's messages, relative to the others' */
    weight: integer('weight').notNull().default(1),
    /** when an admin or dev approved the variant (a client's is sent only after); null: not yet */
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    approvedBy: integer('approved_by'),
    media: text('media'),
    text: text('text').notNull().default(''),
    textWa: text('text_wa').notNull().default(''),
    button: jsonb('button').$type<TemplateButton[]>().notNull().default([]),
    status: text('status').notNull().default('active'),
    countUse: integer('count_use').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('message_templates_status_use_idx').on(t.status, t.countUse),
    index('message_templates_campaign_idx').on(t.campaignId).where(sql`${t.campaignId} is not null`),
  ],
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

/**
 * The default pool's blast counts, as the admin dashboard shows them (numbers sent to at least once,
 * active numbers never sent to; issue 23): kept by migration 0021's triggers on phone_numbers in the
 * statement that changes a number, one row per database connection that changed them (`pid`, its
 * backend's process id), so no two connections ever wait on one row and the count of a million
 * numbers is a sum of a few rows. Row 0 holds what the ledger fold collected from the others
 * (core/src/ledger/pool-counts.ts).
 */
export const phonePoolCounts = pgTable('phone_pool_counts', {
  pid: integer('pid').primaryKey(),
  blasted: bigint('blasted', { mode: 'number' }).notNull().default(0),
  unblasted: bigint('unblasted', { mode: 'number' }).notNull().default(0),
});
