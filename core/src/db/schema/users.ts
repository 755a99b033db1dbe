import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { levels } from './levels';

/**
 * Users of every role (§3 User). A null fee or interval means "use the level's or the settings'
 * value"; money is whole rupiah.
 */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    firstname: text('firstname').notNull(),
    lastname: text('lastname').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').notNull().default('member'),
    levelId: integer('level_id').references(() => levels.id, { onDelete: 'set null' }),
    blastFee: integer('blast_fee'),
    blastIntervalMin: integer('blast_interval_min'),
    blastIntervalMax: integer('blast_interval_max'),
    referralCode: text('referral_code').notNull(),
    referrerId: integer('referrer_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    accountName: text('account_name'),
    accountBank: text('account_bank'),
    accountNumber: text('account_number'),
    /** bumped on a password, e-mail or role change and by "log out everywhere": older tokens stop working */
    tokenVersion: integer('token_version').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`),
    uniqueIndex('users_referral_code_uq').on(t.referralCode),
    index('users_role_created_idx').on(t.role, t.createdAt),
    index('users_referrer_idx').on(t.referrerId, t.createdAt),
    index('users_level_idx').on(t.levelId),
  ],
);

/**
 * API keys: other software acting as a user, with the user's role (optionally read-only). Only a
 * SHA-256 of the key is kept (keys are 256 random bits, so no slow hash is needed); `prefix` is its
 * first characters, shown in the list so a user can tell keys apart. A revoked key stays, unusable.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull(),
    prefix: text('prefix').notNull(),
    readOnly: boolean('read_only').notNull().default(false),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('api_keys_hash_uq').on(t.keyHash), index('api_keys_user_idx').on(t.userId, t.createdAt)],
);
