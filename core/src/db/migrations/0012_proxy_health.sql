ALTER TABLE "proxies" ADD COLUMN "checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "proxies" ADD COLUMN "latency_ms" integer;--> statement-breakpoint
ALTER TABLE "proxies" ADD COLUMN "check_error" text;--> statement-breakpoint
ALTER TABLE "proxies" ADD COLUMN "check_failures" integer DEFAULT 0 NOT NULL;