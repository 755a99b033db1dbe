CREATE TABLE "template_uses" (
	"template_id" integer NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"uses" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "template_uses_template_id_whatsapp_id_pk" PRIMARY KEY("template_id","whatsapp_id")
);
--> statement-breakpoint
CREATE TABLE "account_daily" (
	"whatsapp_id" integer NOT NULL,
	"day" date NOT NULL,
	"user_id" integer NOT NULL,
	"referrer_id" integer,
	"sent" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"read" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"unknown" integer DEFAULT 0 NOT NULL,
	"optout" integer DEFAULT 0 NOT NULL,
	"income" bigint DEFAULT 0 NOT NULL,
	"referral_income" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "account_daily_whatsapp_id_day_pk" PRIMARY KEY("whatsapp_id","day")
);
--> statement-breakpoint
ALTER TABLE "message_logs" ADD COLUMN "fee_due" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "message_logs" ADD COLUMN "referral_fee_due" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "payout_on" text DEFAULT 'accepted' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "undelivered_window_hours" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE "template_uses" ADD CONSTRAINT "template_uses_template_id_message_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."message_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_daily" ADD CONSTRAINT "account_daily_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_daily" ADD CONSTRAINT "account_daily_referrer_id_users_id_fk" FOREIGN KEY ("referrer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_daily_user_day_idx" ON "account_daily" USING btree ("user_id","day");--> statement-breakpoint
CREATE INDEX "account_daily_referrer_day_idx" ON "account_daily" USING btree ("referrer_id","day");--> statement-breakpoint
CREATE INDEX "account_daily_day_idx" ON "account_daily" USING btree ("day");--> statement-breakpoint
CREATE INDEX "message_logs_whatsapp_created_idx" ON "message_logs" USING btree ("whatsapp_id","created_at");--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_payout_on" CHECK ("settings"."payout_on" in ('accepted', 'delivered'));--> statement-breakpoint
-- statuses by receipt: an accepted message is sent, delivered or read; a refused one failed
UPDATE "message_logs" SET "status" = CASE
    WHEN "read_at" IS NOT NULL THEN 'read'
    WHEN "delivered_at" IS NOT NULL THEN 'delivered'
    ELSE 'sent' END
  WHERE "status" = 'success';--> statement-breakpoint
UPDATE "message_logs" SET "status" = 'failed' WHERE "status" = 'fail';--> statement-breakpoint
-- the day rows of the messages logged so far, by the day they were sent in Asia/Jakarta (the
-- default APP_TIMEZONE); logs of a deleted account are kept under -user_id
INSERT INTO "account_daily" ("whatsapp_id", "day", "user_id", "referrer_id", "sent", "delivered", "read",
    "failed", "unknown", "income", "referral_income")
  SELECT coalesce(m."whatsapp_id", -m."user_id"), (m."created_at" AT TIME ZONE 'Asia/Jakarta')::date,
    min(m."user_id"), max(m."referrer_id"),
    count(*) FILTER (WHERE m."status" IN ('sent', 'delivered', 'read')),
    count(*) FILTER (WHERE m."status" IN ('delivered', 'read')),
    count(*) FILTER (WHERE m."status" = 'read'),
    count(*) FILTER (WHERE m."status" = 'failed'),
    count(*) FILTER (WHERE m."status" = 'unknown'),
    coalesce(sum(m."fee"), 0),
    coalesce(sum(CASE WHEN m."referrer_id" IS NULL THEN 0 ELSE m."referral_fee" END), 0)
  FROM "message_logs" m
  WHERE m."status" <> 'pending'
  GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO "account_daily" ("whatsapp_id", "day", "user_id", "optout")
  SELECT i."whatsapp_id", (i."created_at" AT TIME ZONE 'Asia/Jakarta')::date, min(w."user_id"), count(*)
  FROM "incoming_messages" i JOIN "whatsapp_accounts" w ON w."id" = i."whatsapp_id"
  WHERE i."optout"
  GROUP BY 1, 2
  ON CONFLICT ("whatsapp_id", "day") DO UPDATE SET "optout" = EXCLUDED."optout";--> statement-breakpoint
CREATE INDEX "message_logs_due_idx" ON "message_logs" USING btree ("created_at") WHERE "fee_due" > 0 OR "referral_fee_due" > 0;
