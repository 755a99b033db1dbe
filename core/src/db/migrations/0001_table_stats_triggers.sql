-- Exact row counts and change versions for the big lists (phone numbers, proxies), kept by
-- statement-level triggers: one update per statement, whatever the number of rows.
CREATE FUNCTION table_stats_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE table_stats SET row_count = row_count + (SELECT count(*) FROM new_rows), version = version + 1
    WHERE name = TG_TABLE_NAME;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION table_stats_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE table_stats SET row_count = row_count - (SELECT count(*) FROM old_rows), version = version + 1
    WHERE name = TG_TABLE_NAME;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION table_stats_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE table_stats SET row_count = 0, version = version + 1 WHERE name = TG_TABLE_NAME;
  RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO table_stats (name, row_count) SELECT 'phone_numbers', count(*) FROM phone_numbers;
--> statement-breakpoint
INSERT INTO table_stats (name, row_count) SELECT 'proxies', count(*) FROM proxies;
--> statement-breakpoint
CREATE TRIGGER phone_numbers_stats_insert AFTER INSERT ON phone_numbers
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION table_stats_after_insert();
--> statement-breakpoint
CREATE TRIGGER phone_numbers_stats_delete AFTER DELETE ON phone_numbers
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION table_stats_after_delete();
--> statement-breakpoint
CREATE TRIGGER phone_numbers_stats_truncate AFTER TRUNCATE ON phone_numbers
  FOR EACH STATEMENT EXECUTE FUNCTION table_stats_after_truncate();
--> statement-breakpoint
CREATE TRIGGER proxies_stats_insert AFTER INSERT ON proxies
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION table_stats_after_insert();
--> statement-breakpoint
CREATE TRIGGER proxies_stats_delete AFTER DELETE ON proxies
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION table_stats_after_delete();
--> statement-breakpoint
CREATE TRIGGER proxies_stats_truncate AFTER TRUNCATE ON proxies
  FOR EACH STATEMENT EXECUTE FUNCTION table_stats_after_truncate();
