CREATE TABLE "number_checks" (
	"number" text PRIMARY KEY NOT NULL,
	"registered" boolean NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "daily_cap_start" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "daily_cap_growth" integer DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "daily_cap_max" integer DEFAULT 500 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "send_window_start" text DEFAULT '08:00' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "send_window_end" text DEFAULT '20:00' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "check_budget_daily" integer DEFAULT 1000 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "check_cache_days" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapp_accounts" ADD COLUMN "sent_today" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapp_accounts" ADD COLUMN "sent_day_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "whatsapp_accounts" ADD COLUMN "checks_today" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapp_accounts" ADD COLUMN "checks_day_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "whatsapp_accounts" ADD COLUMN "blast_start_at" timestamp with time zone;