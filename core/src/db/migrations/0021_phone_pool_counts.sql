CREATE TABLE "phone_pool_counts" (
	"pid" integer PRIMARY KEY NOT NULL,
	"blasted" bigint DEFAULT 0 NOT NULL,
	"unblasted" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- The pool's blast counts (issue 23), kept in the statement that changes a number. A number of the
-- default pool (campaign_id null) is "blasted" once sent to (last_sent set) and "unblasted" while
-- active and never sent to; each connection adds its changes to its own row (pg_backend_pid()).
CREATE FUNCTION phone_pool_counts_add(b bigint, u bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO phone_pool_counts AS c (pid, blasted, unblasted) VALUES (pg_backend_pid(), b, u)
  ON CONFLICT (pid) DO UPDATE SET blasted = c.blasted + excluded.blasted, unblasted = c.unblasted + excluded.unblasted
$$;
--> statement-breakpoint
CREATE FUNCTION phone_pool_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE b bigint; u bigint;
BEGIN
  SELECT count(*) FILTER (WHERE last_sent IS NOT NULL), count(*) FILTER (WHERE status = 'active' AND last_sent IS NULL)
  INTO b, u FROM new_rows WHERE campaign_id IS NULL;
  IF b <> 0 OR u <> 0 THEN
    PERFORM phone_pool_counts_add(b, u);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION phone_pool_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE b bigint; u bigint;
BEGIN
  SELECT count(*) FILTER (WHERE last_sent IS NOT NULL), count(*) FILTER (WHERE status = 'active' AND last_sent IS NULL)
  INTO b, u FROM old_rows WHERE campaign_id IS NULL;
  IF b <> 0 OR u <> 0 THEN
    PERFORM phone_pool_counts_add(-b, -u);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- a row's update: only the rows whose standing changes call it (the trigger's WHEN), so a claim, a
-- receipt or a second send costs nothing here; the first send to a number moves it from one count
-- to the other
CREATE FUNCTION phone_pool_counts_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM phone_pool_counts_add(
    (new.campaign_id IS NULL AND new.last_sent IS NOT NULL)::int - (old.campaign_id IS NULL AND old.last_sent IS NOT NULL)::int,
    (new.campaign_id IS NULL AND new.status = 'active' AND new.last_sent IS NULL)::int
      - (old.campaign_id IS NULL AND old.status = 'active' AND old.last_sent IS NULL)::int);
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
CREATE TRIGGER phone_numbers_pool_counts_update AFTER UPDATE ON phone_numbers FOR EACH ROW
  WHEN ((old.campaign_id IS NULL AND old.last_sent IS NOT NULL) IS DISTINCT FROM (new.campaign_id IS NULL AND new.last_sent IS NOT NULL)
     OR (old.campaign_id IS NULL AND old.status = 'active' AND old.last_sent IS NULL)
        IS DISTINCT FROM (new.campaign_id IS NULL AND new.status = 'active' AND new.last_sent IS NULL))
  EXECUTE FUNCTION phone_pool_counts_after_update();
--> statement-breakpoint
CREATE TRIGGER phone_numbers_pool_counts_truncate AFTER TRUNCATE ON phone_numbers
  FOR EACH STATEMENT EXECUTE FUNCTION phone_pool_counts_after_truncate();
--> statement-breakpoint
-- the pool as it stands: the migrations run in one transaction and CREATE TRIGGER locks out every
-- writer of phone_numbers until it commits, so no change falls between this count and the triggers
INSERT INTO phone_pool_counts (pid, blasted, unblasted)
SELECT 0, count(*) FILTER (WHERE last_sent IS NOT NULL), count(*) FILTER (WHERE status = 'active' AND last_sent IS NULL)
FROM phone_numbers WHERE campaign_id IS NULL;
