CREATE TABLE "money_totals" (
	"name" text PRIMARY KEY NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Everybody's bonus total and held withdrawals (issue 23): each statement that changes bonuses or
-- withdrawals moves its total by what it changed, once (an admin's bonus, a withdrawal's request or
-- decision, a member's deletion cascading to theirs); the `all` balance reads the two rows.
CREATE FUNCTION money_totals_move(what text, by_ numeric) RETURNS void LANGUAGE sql AS $$
  UPDATE money_totals SET total = total + by_::bigint WHERE name = what AND by_ <> 0
$$;
--> statement-breakpoint
CREATE FUNCTION bonuses_total_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM money_totals_move('bonuses', (SELECT coalesce(sum(nominal), 0) FROM new_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION bonuses_total_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM money_totals_move('bonuses', -(SELECT coalesce(sum(nominal), 0) FROM old_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION bonuses_total_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM money_totals_move('bonuses',
    (SELECT coalesce(sum(nominal), 0) FROM new_rows) - (SELECT coalesce(sum(nominal), 0) FROM old_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION withdrawals_held_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM money_totals_move('withdrawals_held',
    (SELECT coalesce(sum(nominal), 0) FROM new_rows WHERE status IN ('requested', 'accepted')));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION withdrawals_held_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM money_totals_move('withdrawals_held',
    -(SELECT coalesce(sum(nominal), 0) FROM old_rows WHERE status IN ('requested', 'accepted')));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION withdrawals_held_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM money_totals_move('withdrawals_held',
    (SELECT coalesce(sum(nominal), 0) FROM new_rows WHERE status IN ('requested', 'accepted'))
    - (SELECT coalesce(sum(nominal), 0) FROM old_rows WHERE status IN ('requested', 'accepted')));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION money_totals_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE money_totals SET total = 0 WHERE name = TG_ARGV[0];
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER bonuses_total_insert AFTER INSERT ON bonuses
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bonuses_total_after_insert();
--> statement-breakpoint
CREATE TRIGGER bonuses_total_delete AFTER DELETE ON bonuses
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bonuses_total_after_delete();
--> statement-breakpoint
CREATE TRIGGER bonuses_total_update AFTER UPDATE ON bonuses
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bonuses_total_after_update();
--> statement-breakpoint
CREATE TRIGGER bonuses_total_truncate AFTER TRUNCATE ON bonuses
  FOR EACH STATEMENT EXECUTE FUNCTION money_totals_after_truncate('bonuses');
--> statement-breakpoint
CREATE TRIGGER withdrawals_held_insert AFTER INSERT ON withdrawals
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION withdrawals_held_after_insert();
--> statement-breakpoint
CREATE TRIGGER withdrawals_held_delete AFTER DELETE ON withdrawals
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION withdrawals_held_after_delete();
--> statement-breakpoint
CREATE TRIGGER withdrawals_held_update AFTER UPDATE ON withdrawals
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION withdrawals_held_after_update();
--> statement-breakpoint
CREATE TRIGGER withdrawals_held_truncate AFTER TRUNCATE ON withdrawals
  FOR EACH STATEMENT EXECUTE FUNCTION money_totals_after_truncate('withdrawals_held');
--> statement-breakpoint
-- the totals as they stand (the migrations run in one transaction, and CREATE TRIGGER locks out the
-- tables' writers until it commits)
INSERT INTO money_totals (name, total)
SELECT 'bonuses', coalesce(sum(nominal), 0) FROM bonuses
UNION ALL
SELECT 'withdrawals_held', coalesce(sum(nominal), 0) FROM withdrawals WHERE status IN ('requested', 'accepted');
