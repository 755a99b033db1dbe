import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * A user's webhook endpoints (issue 13): where events of the chosen types are POSTed, signed with
 * `secret` (kept as it is: every delivery is signed with it). Admins' and devs' endpoints hear every
 * user's events; the others' only their own (the owner's role is read at each event).
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    description: text('description').notNull().default(''),
    secret: text('secret').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_user_idx').on(t.userId)],
);

/**
 * One event's delivery to one endpoint: the row is the truth of where it stands (pending, delivered,
 * failed after a day of retries). `body` is the exact JSON sent; a resend is a new row with the same
 * `event_id`. `locked_until` is the claim of the worker posting it, so two jobs never post it at once.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    eventId: uuid('event_id').notNull(),
    body: text('body').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    responseStatus: integer('response_status'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** the delivery this one resends (null: the event's first) */
    resendOf: bigint('resend_of', { mode: 'number' }),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    // an endpoint's backlog (WEBHOOK_BACKLOG_CAP) is counted on this
    index('webhook_deliveries_pending_idx').on(t.endpointId).where(sql`status = 'pending'`),
    index('webhook_deliveries_created_idx').on(t.createdAt),
  ],
);
