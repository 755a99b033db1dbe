import { sql } from 'drizzle-orm';
import { check, customType, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * Uploads every host reads (issue 19): template media (served publicly, sent by the blast loops)
 * and validator files (private, read by the validator loops). They lived in the API host's
 * DATA_DIR, which a worker on another host cannot see. `name` is the stored name the rows point at
 * (message_templates.media, validators.file_url); uploads are at most 16 MB, so one bytea does.
 */
export const storedFiles = pgTable(
  'stored_files',
  {
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    mimetype: text('mimetype').notNull(),
    size: integer('size').notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.name] }),
    check('stored_files_kind', sql`${t.kind} in ('template', 'validator')`),
  ],
);
