CREATE TABLE "account_hourly" (
	"whatsapp_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"user_id" integer NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "account_hourly_whatsapp_id_hour_pk" PRIMARY KEY("whatsapp_id","hour")
);
--> statement-breakpoint
CREATE TABLE "ledger_days" (
	"day" date PRIMARY KEY NOT NULL,
	"accounts" integer DEFAULT 0 NOT NULL,
	"sent" bigint DEFAULT 0 NOT NULL,
	"delivered" bigint DEFAULT 0 NOT NULL,
	"read" bigint DEFAULT 0 NOT NULL,
	"failed" bigint DEFAULT 0 NOT NULL,
	"unknown" bigint DEFAULT 0 NOT NULL,
	"optout" bigint DEFAULT 0 NOT NULL,
	"income" bigint DEFAULT 0 NOT NULL,
	"referral_income" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_folds" (
	"name" text PRIMARY KEY NOT NULL,
	"cold_through" date NOT NULL,
	"hours_through" timestamp with time zone NOT NULL,
	"folded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_hours" (
	"user_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"sent" bigint DEFAULT 0 NOT NULL,
	"delivered" bigint DEFAULT 0 NOT NULL,
	"failed" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "ledger_hours_user_id_hour_pk" PRIMARY KEY("user_id","hour")
);
--> statement-breakpoint
CREATE TABLE "ledger_totals" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"sent" bigint DEFAULT 0 NOT NULL,
	"failed" bigint DEFAULT 0 NOT NULL,
	"income" bigint DEFAULT 0 NOT NULL,
	"referral_income" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_hourly" ADD CONSTRAINT "account_hourly_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_hourly_user_hour_idx" ON "account_hourly" USING btree ("user_id","hour");--> statement-breakpoint
CREATE INDEX "account_hourly_hour_idx" ON "account_hourly" USING btree ("hour");--> statement-breakpoint
CREATE INDEX "message_logs_target_idx" ON "message_logs" USING btree ("target" text_pattern_ops,"created_at","id");
--> statement-breakpoint
-- the hours of the last 8 days' messages (the charts' week), on Asia/Jakarta's clock as migration
-- 0008 filed the days (the default APP_TIMEZONE); logs of a deleted account are kept under -user_id.
-- The folded tables start empty: until the engine's first fold, every read takes the day rows.
INSERT INTO "account_hourly" ("whatsapp_id", "hour", "user_id", "sent", "delivered", "failed")
  SELECT coalesce(m."whatsapp_id", -m."user_id"), date_trunc('hour', m."created_at", 'Asia/Jakarta'), min(m."user_id"),
    count(*) FILTER (WHERE m."status" IN ('sent', 'delivered', 'read')),
    count(*) FILTER (WHERE m."status" IN ('delivered', 'read')),
    count(*) FILTER (WHERE m."status" = 'failed')
  FROM "message_logs" m
  WHERE m."created_at" >= now() - interval '8 days' AND m."status" <> 'pending'
  GROUP BY 1, 2
  ORDER BY 2, 1;
--> statement-breakpoint
-- How far the fold has gone, as STABLE functions rather than subqueries: the planner evaluates a
-- stable function when it estimates a condition, so `day > ledger_cold_day()` is planned as the
-- two open days it is (an index scan), not as a third of every day row (a scan of them all).
CREATE FUNCTION ledger_cold_day() RETURNS date LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN coalesce((SELECT cold_through FROM ledger_folds WHERE name = 'ledger'), '-infinity'::date);
END $$;
--> statement-breakpoint
CREATE FUNCTION ledger_cold_hour() RETURNS timestamptz LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN coalesce((SELECT hours_through FROM ledger_folds WHERE name = 'ledger'), '-infinity'::timestamptz);
END $$;
