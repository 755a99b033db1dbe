DROP INDEX "message_logs_user_status_idx";--> statement-breakpoint
DROP INDEX "message_logs_created_status_idx";--> statement-breakpoint
DROP INDEX "message_logs_whatsapp_idx";--> statement-breakpoint
DROP INDEX "message_logs_referrer_idx";--> statement-breakpoint
CREATE INDEX "message_logs_created_idx" ON "message_logs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "message_logs_referrer_idx" ON "message_logs" USING btree ("referrer_id") WHERE "message_logs"."referrer_id" is not null;--> statement-breakpoint
-- room on each page for a receipt's new row version (HOT updates: no index written)
ALTER TABLE "message_logs" SET (fillfactor = 90);
--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD COLUMN "claimed_by" integer;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD COLUMN "claim_started" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- room on each page for a claim's new row version (in_use and claimed_by are in no index: HOT)
ALTER TABLE "phone_numbers" SET (fillfactor = 90);--> statement-breakpoint
-- a claim now lives on its target until the outcome is logged; claims an older worker left as
-- pending logs are settled as unknown (whether they left is unknown), their targets as sent
WITH m AS (
  UPDATE "message_logs" SET "status" = 'unknown', "error" = 'The worker stopped while sending: delivery unknown.'
  WHERE "status" = 'pending'
  RETURNING "whatsapp_id", "user_id", "created_at", "phone_number_id"
), p AS (
  UPDATE "phone_numbers" p SET "in_use" = 0, "last_sent" = coalesce(p."last_sent", now())
  FROM m WHERE m."phone_number_id" = p."id"
)
INSERT INTO "account_daily" AS d ("whatsapp_id", "day", "user_id", "unknown")
  SELECT coalesce(m."whatsapp_id", -m."user_id"), (m."created_at" AT TIME ZONE 'Asia/Jakarta')::date, min(m."user_id"), count(*)
  FROM m GROUP BY 1, 2
  ON CONFLICT ("whatsapp_id", "day") DO UPDATE SET "unknown" = d."unknown" + EXCLUDED."unknown";
--> statement-breakpoint
-- the report's order: newest day first, then the account
DROP INDEX "account_daily_day_idx";--> statement-breakpoint
CREATE INDEX "account_daily_day_account_idx" ON "account_daily" USING btree ("day" DESC NULLS LAST,"whatsapp_id");
