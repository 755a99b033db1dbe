import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { proxies } from './proxies';
import { users } from './users';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** Connected WhatsApp accounts (§3 WhatsApp account). `clientid` is the device id of §4. */
export const whatsappAccounts = pgTable(
  'whatsapp_accounts',
  {
    id: serial('id').primaryKey(),
    clientid: text('clientid').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    previousDeviceId: text('previous_device_id'),
    phonenumber: text('phonenumber'),
    pushname: text('pushname'),
    server: text('server'),
    serialized: text('serialized'),
    proxyId: integer('proxy_id').references(() => proxies.id, { onDelete: 'set null' }),
    reconnect: integer('reconnect').notNull().default(0),
    interval: integer('interval'),
    state: text('state'),
    status: text('status').notNull().default('idle'),
    countSuccess: integer('count_success').notNull().default(0),
    countFail: integer('count_fail').notNull().default(0),
    income: bigint('income', { mode: 'number' }).notNull().default(0),
    suspended: boolean('suspended').notNull().default(false),
    suspendedCount: integer('suspended_count').notNull().default(0),
    /** the worker that holds the live session, and until when its lease runs */
    workerId: text('worker_id'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('whatsapp_clientid_uq').on(t.clientid),
    index('whatsapp_user_state_idx').on(t.userId, t.state),
    index('whatsapp_state_idx').on(t.state),
    index('whatsapp_phonenumber_idx').on(t.phonenumber),
    index('whatsapp_worker_idx').on(t.workerId, t.leaseUntil),
  ],
);

/** Stored whatsapp-web.js sessions (RemoteAuth store), so any worker can restore any account. */
export const whatsappSessions = pgTable('whatsapp_sessions', {
  sessionId: text('session_id').primaryKey(),
  data: bytea('data').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
