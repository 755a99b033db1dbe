import {
  bigint,
  boolean,
  index,
  integer,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users';
import { whatsappAccounts } from './whatsapp';

/** Number generators (§3 Generator): walk a number range and keep the numbers on WhatsApp. */
export const generators = pgTable(
  'generators',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    whatsappId: integer('whatsapp_id').references(() => whatsappAccounts.id, { onDelete: 'set null' }),
    startNumber: bigint('start_number', { mode: 'number' }).notNull(),
    endNumber: bigint('end_number', { mode: 'number' }).notNull(),
    currentNumber: bigint('current_number', { mode: 'number' }),
    bInsert: integer('b_insert').notNull().default(0),
    intervalMin: integer('interval_min').notNull().default(1),
    intervalMax: integer('interval_max').notNull().default(2),
    countSuccess: integer('count_success').notNull().default(0),
    countFail: integer('count_fail').notNull().default(0),
    progress: numeric('progress', { precision: 5, scale: 2, mode: 'number' }).notNull().default(0),
    status: text('status').notNull().default('idle'),
    state: text('state'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('generators_user_created_idx').on(t.userId, t.createdAt), index('generators_status_idx').on(t.status)],
);

/** Number validators (§3 Validator): check the numbers of an uploaded file. */
export const validators = pgTable(
  'validators',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    whatsappId: integer('whatsapp_id').references(() => whatsappAccounts.id, { onDelete: 'set null' }),
    bInsert: integer('b_insert').notNull().default(0),
    intervalMin: integer('interval_min').notNull().default(1),
    intervalMax: integer('interval_max').notNull().default(2),
    fileName: text('file_name').notNull(),
    fileUrl: text('file_url').notNull(),
    total: integer('total').notNull().default(0),
    position: integer('position').notNull().default(0),
    countSuccess: integer('count_success').notNull().default(0),
    countFail: integer('count_fail').notNull().default(0),
    progress: numeric('progress', { precision: 5, scale: 2, mode: 'number' }).notNull().default(0),
    status: text('status').notNull().default('idle'),
    state: text('state'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('validators_user_created_idx').on(t.userId, t.createdAt), index('validators_status_idx').on(t.status)],
);

/** Numbers a generator found on WhatsApp (§3 Result row). */
export const generatorResults = pgTable(
  'generator_results',
  {
    id: serial('id').primaryKey(),
    generatorId: integer('generator_id')
      .notNull()
      .references(() => generators.id, { onDelete: 'cascade' }),
    number: text('number').notNull(),
    name: text('name').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('generator_results_uq').on(t.generatorId, t.number)],
);

/** Numbers a validator confirmed on WhatsApp (§3 Result row). */
export const validatorResults = pgTable(
  'validator_results',
  {
    id: serial('id').primaryKey(),
    validatorId: integer('validator_id')
      .notNull()
      .references(() => validators.id, { onDelete: 'cascade' }),
    number: text('number').notNull(),
    name: text('name').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('validator_results_uq').on(t.validatorId, t.number)],
);

/**
 * The last check of each number (generator, validator): a number checked within settings'
 * check_cache_days is answered from here instead of asking WhatsApp again.
 */
export const numberChecks = pgTable('number_checks', {
  number: text('number').primaryKey(),
  registered: boolean('registered').notNull(),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
});
