-- The engine writes a message's log row only with its outcome (outcomesSql; a send a dead worker
-- left is settled 'unknown' by settleAbandoned), so a 'pending' row is left over from the engine
-- before issue 9: its worker died between the claim and the outcome. It becomes what such a
-- message is today, 'unknown' (unpaid, counted on its day row, filed on Asia/Jakarta's days as
-- migration 0008 filed them), and the log's 'pending' filter no longer reads the whole log to
-- find none (issue 23).
WITH p AS (
  UPDATE "message_logs" SET "status" = 'unknown',
    "error" = coalesce("error", 'The worker stopped while sending: delivery unknown.')
  WHERE "status" = 'pending'
  RETURNING "whatsapp_id", "user_id", "created_at"
)
INSERT INTO "account_daily" AS d ("whatsapp_id", "day", "user_id", "unknown")
  SELECT coalesce(p."whatsapp_id", -p."user_id"), (p."created_at" AT TIME ZONE 'Asia/Jakarta')::date, min(p."user_id"),
    count(*)
  FROM p GROUP BY 1, 2
  ON CONFLICT ("whatsapp_id", "day") DO UPDATE SET "unknown" = d."unknown" + excluded."unknown";
