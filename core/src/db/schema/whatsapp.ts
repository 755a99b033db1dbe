import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
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
    /**
     * the WhatsApp engine the account's session runs on ('wwebjs' | 'baileys'), fixed at its login
     * (a stored session belongs to one engine); null: the installation's default (WA_DRIVER)
     */
    engine: text('engine'),
    reconnect: integer('reconnect').notNull().default(0),
    interval: integer('interval'),
    state: text('state'),
    status: text('status').notNull().default('idle'),
    countSuccess: integer('count_success').notNull().default(0),
    countFail: integer('count_fail').notNull().default(0),
    income: bigint('income', { mode: 'number' }).notNull().default(0),
    suspended: boolean('suspended').notNull().default(false),
    suspendedCount: integer('suspended_count').notNull().default(0),
    /** a pause after ban signals: no blast until then (admin/dev may lift it) */
    pausedUntil: timestamp('paused_until', { withTimezone: true }),
    pauseReason: text('pause_reason'),
    /**
     * why the account's running loop waits on the installation (e.g. 'Menunggu Redis…'), written by
     * its holder while a dependency is down and cleared when the loop goes on; null: not waiting
     */
    waitingReason: text('waiting_reason'),
    /** blast sends failed in a row; settings' fail_streak_pause of them pause the account */
    failStreak: integer('fail_streak').notNull().default(0),
    /** session drops in the current window (drops_since + 30 min); 3 pause the account */
    drops: integer('drops').notNull().default(0),
    dropsSince: timestamp('drops_since', { withTimezone: true }),
    /** blast messages sent in the current APP_TIMEZONE day, which ends at sent_day_end (the daily cap) */
    sentToday: integer('sent_today').notNull().default(0),
    sentDayEnd: timestamp('sent_day_end', { withTimezone: true }),
    /** number checks (generator/validator) in the current day, which ends at checks_day_end (the check budget) */
    checksToday: integer('checks_today').notNull().default(0),
    checksDayEnd: timestamp('checks_day_end', { withTimezone: true }),
    /** a blast the member scheduled: it starts sending at this time */
    blastStartAt: timestamp('blast_start_at', { withTimezone: true }),
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

/**
 * Stored sessions, so any worker can restore any account: whatsapp-web.js's RemoteAuth zip, or
 * Baileys' credentials (JSON). A row exists once the account has logged in.
 */
export const whatsappSessions = pgTable('whatsapp_sessions', {
  sessionId: text('session_id').primaryKey(),
  data: bytea('data').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Baileys' signal keys of a session (pre-keys, sessions with contacts, sender keys, app-state keys),
 * one row per key, as JSON. Written in one statement per batch Baileys hands over, so a crash
 * leaves either the whole batch or none of it. Deleted with the session (DbSessionStore.delete).
 */
export const whatsappSessionKeys = pgTable(
  'whatsapp_session_keys',
  {
    sessionId: text('session_id').notNull(),
    type: text('type').notNull(),
    keyId: text('key_id').notNull(),
    value: text('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.type, t.keyId] })],
);

/**
 * Logins in progress (new-client until save, remove-client or expiry), one row per device id. The
 * API counts them per user and against the workers' capacity, so every API replica sees the same
 * numbers; the worker that runs a login keeps `expires_at` moving while the login shows signs of
 * life, and a row past `expires_at` counts for nobody whatever happened to its worker.
 */
export const whatsappLogins = pgTable(
  'whatsapp_logins',
  {
    deviceId: text('device_id').primaryKey(),
    /** whose account the login becomes */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** who opened it: the per-user cap counts this user's logins */
    requestedBy: integer('requested_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** the proxy chosen at new-client; its use is counted when the account is saved */
    proxyId: integer('proxy_id').references(() => proxies.id, { onDelete: 'set null' }),
    /** the engine the login runs on, carried to the account when it is saved (null: the default) */
    engine: text('engine'),
    /** the worker running it, once one took the job */
    workerId: text('worker_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('whatsapp_logins_requester_idx').on(t.requestedBy, t.expiresAt),
    index('whatsapp_logins_expires_idx').on(t.expiresAt),
    index('whatsapp_logins_proxy_idx').on(t.proxyId),
  ],
);

/**
 * The live workers and how many unsaved logins each may run, renewed with their leases: the API
 * refuses a login up front when every worker is full rather than queueing a job nobody takes.
 */
export const whatsappWorkers = pgTable('whatsapp_workers', {
  workerId: text('worker_id').primaryKey(),
  maxLogins: integer('max_logins').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  /**
   * accounts held here whose row says a loop should run (a blast 'sending') but whose loop is not
   * running, as of the last heartbeat: GET /api/health answers 'degraded' while any live worker has some
   */
  stalled: integer('stalled').notNull().default(0),
  /** the dependency this worker waits for at its last heartbeat ('database', 'redis'), else null */
  waitingFor: text('waiting_for'),
});

/**
 * One-off sends of the blaster form (send-message/1): the receivers in order and how far the
 * account's holder got. `position` moves before each message leaves, so a send that a dying worker
 * leaves behind goes on after the last receiver it started and never messages anyone twice.
 */
export const whatsappSends = pgTable(
  'whatsapp_sends',
  {
    id: text('id').primaryKey(),
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsappAccounts.id, { onDelete: 'cascade' }),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    message: text('message').notNull(),
    receivers: text('receivers').array().notNull(),
    position: integer('position').notNull().default(0),
    countSuccess: integer('count_success').notNull().default(0),
    countFail: integer('count_fail').notNull().default(0),
    /** sending, done, or stopped (the account left connected before it was through) */
    status: text('status').notNull().default('sending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('whatsapp_sends_account_idx').on(t.whatsappId, t.status, t.createdAt)],
);
