ALTER TABLE "whatsapp_accounts" ADD COLUMN "waiting_reason" text;--> statement-breakpoint
ALTER TABLE "whatsapp_workers" ADD COLUMN "stalled" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapp_workers" ADD COLUMN "waiting_for" text;