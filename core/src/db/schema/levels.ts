import { integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** Member levels (§3 Level): the blast fee and the number of blasts needed to reach it. */
export const levels = pgTable('levels', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  blastFee: integer('blast_fee').notNull(),
  requirementBlast: integer('requirement_blast').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
