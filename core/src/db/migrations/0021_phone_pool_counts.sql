CREATE TABLE "phone_pool_counts" (
	"pid" integer PRIMARY KEY NOT NULL,
	"blasted" bigint DEFAULT 0 NOT NULL,
	"unblasted" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- The pool's blast counts (issue 23), kept in the statement that changes a number. A number of the
-- default pool (campaign_id null) is "blasted" once sent to (last_sent set) and "unblasted" while
-- active and never sent to. Each trigger runs once per statement and makes one write at most: each
-- connection adds the statement's change to its own row (pg_backend_pid()), none when nothing moved
-- (a claim, a receipt, a second send), so senders never wait on one another's row.
CREATE FUNCTION phone_pool_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO phone_pool_counts AS c (pid, blasted, unblasted)
  SELECT pg_backend_pid(), sum((last_sent IS NOT NULL)::int), sum((status = 'active' AND last_sent IS NULL)::int)
  FROM new_rows WHERE campaign_id IS NULL
  HAVING sum((last_sent IS NOT NULL)::int) <> 0 OR sum((status = 'active' AND last_sent IS NULL)::int) <> 0
  ON CONFLICT (pid) DO UPDATE SET blasted = c.blasted + excluded.blasted, unblasted = c.unblasted + excluded.unblasted;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION phone_pool_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO phone_pool_counts AS c (pid, blasted, unblasted)
  SELECT pg_backend_pid(), -sum((last_sent IS NOT NULL)::int), -sum((status = 'active' AND last_sent IS NULL)::int)
  FROM old_rows WHERE campaign_id IS NULL
  HAVING sum((last_sent IS NOT NULL)::int) <> 0 OR sum((status = 'active' AND last_sent IS NULL)::int) <> 0
  ON CONFLICT (pid) DO UPDATE SET blasted = c.blasted + excluded.blasted, unblasted = c.unblasted + excluded.unblasted;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- an update (the engine's outcome statement for a whole batch of sends, a claim of fifty numbers):
-- the rows after less the rows before; the first send to a number moves it from one count to the other
CREATE FUNCTION phone_pool_counts_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO phone_pool_counts AS c (pid, blasted, unblasted)
  SELECT pg_backend_pid(), sum(x.b), sum(x.u) FROM (
    SELECT (last_sent IS NOT NULL)::int AS b, (status = 'active' AND last_sent IS NULL)::int AS u
    FROM new_rows WHERE campaign_id IS NULL
    UNION ALL
    SELECT -(last_sent IS NOT NULL)::int, -(status = 'active' AND last_sent IS NULL)::int
    FROM old_rows WHERE campaign_id IS NULL
  ) x
  HAVING sum(x.b) <> 0 OR sum(x.u) <> 0
  ON CONFLICT (pid) DO UPDATE SET blasted = c.blasted + excluded.blasted, unblasted = c.unblasted + excluded.unblasted;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION phone_pool_counts_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM phone_pool_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER phone_numbers_pool_counts_insert AFTER INSERT ON phone_numbers
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION phone_pool_counts_after_insert();
--> statement-breakpoint
CREATE TRIGGER phone_numbers_pool_counts_delete AFTER DELETE ON phone_numbers
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION phone_pool_counts_after_delete();
--> statement-breakpoint
CREATE TRIGGER phone_numbers_pool_counts_update AFTER UPDATE ON phone_numbers
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION phone_pool_counts_after_update();
--> statement-breakpoint
CREATE TRIGGER phone_numbers_pool_counts_truncate AFTER TRUNCATE ON phone_numbers
  FOR EACH STATEMENT EXECUTE FUNCTION phone_pool_counts_after_truncate();
--> statement-breakpoint
-- the pool as it stands: the migrations run in one transaction and CREATE TRIGGER locks out every
-- writer of phone_numbers until it commits, so no change falls between this count and the triggers
INSERT INTO phone_pool_counts (pid, blasted, unblasted)
SELECT 0, count(*) FILTER (WHERE last_sent IS NOT NULL), count(*) FILTER (WHERE status = 'active' AND last_sent IS NULL)
FROM phone_numbers WHERE campaign_id IS NULL;
