import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * An advertiser's campaign (issue 22): a `client` user's order, run on the members' accounts. Its
 * status moves draft → pending (submitted) → active (approved by an admin or dev) ⇄ paused →
 * finished (`stop_reason` says why). The counters are the campaign's own figures, kept by the sends
 * and receipts that belong to it; `spent` is what the advertiser owes in rupiah (the price of each
 * delivered message).
 */
export const campaigns = pgTable(
  'campaigns',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    clientId: integer('client_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    status: text('status').notNull().default('draft'),
    /** higher first; equals share fairly */
    priority: integer('priority').notNull().default(0),
    startAt: timestamp('start_at', { withTimezone: true }),
    endAt: timestamp('end_at', { withTimezone: true }),
    /** 'HH:MM' local time: a send window inside the settings' own (null: the settings' window) */
    windowStart: text('window_start'),
    windowEnd: text('window_end'),
    /** messages the campaign may send at most (null: no cap) */
    budgetMessages: integer('budget_messages'),
    /** rupiah the campaign may spend at most (null: no cap) */
    budgetAmount: bigint('budget_amount', { mode: 'number' }),
    /** rupiah per delivered message, set by an admin or dev */
    pricePerDelivered: integer('price_per_delivered').notNull().default(0),
    sent: integer('sent').notNull().default(0),
    delivered: integer('delivered').notNull().default(0),
    read: integer('read').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    replied: integer('replied').notNull().default(0),
    optout: integer('optout').notNull().default(0),
    spent: bigint('spent', { mode: 'number' }).notNull().default(0),
    /**
     * the budget taken: every target claimed and not given back (sent, failed, logged unknown, or
     * still in flight). A claim takes from it under the row's lock, so concurrent blasts never go
     * past the budget; a claim given back unsent returns its share. Only claims and releases write
     * it: the send path never writes a campaign's row.
     */
    reserved: integer('reserved').notNull().default(0),
    /** messages logged unknown (a worker died mid-send): counted from the log like the figures above */
    unknown: integer('unknown').notNull().default(0),
    /** when the campaign last gave targets to a blast: equals take turns, the longest waiting first */
    servedAt: timestamp('served_at', { withTimezone: true }),
    /** when the campaign was first told started (campaign.started) */
    startedAt: timestamp('started_at', { withTimezone: true }),
    /** when campaign.progress was last told (at most once a minute) */
    progressAt: timestamp('progress_at', { withTimezone: true }),
    /** why a finished campaign stopped: 'budget', 'ended' or 'manual' */
    stopReason: text('stop_reason'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('campaigns_client_idx').on(t.clientId, t.id),
    // the blasts draw from the active campaigns, by priority
    index('campaigns_active_idx').on(t.priority, t.id).where(sql`${t.status} = 'active'`),
  ],
);

/**
 * Money an advertiser paid for a campaign, recorded by an admin or dev (issue 22): each top-up adds
 * its amount to the campaign's rupiah budget; the list is the client's payment history.
 */
export const campaignTopups = pgTable(
  'campaign_topups',
  {
    id: serial('id').primaryKey(),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    note: text('note').notNull().default(''),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('campaign_topups_campaign_idx').on(t.campaignId, t.id)],
);
