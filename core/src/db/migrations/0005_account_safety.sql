CREATE TABLE "incoming_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"whatsapp_id" integer,
	"phone_number_id" integer,
	"sender" text NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"button_id" text,
	"optout" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "message_logs" ADD COLUMN "text" text;--> statement-breakpoint
ALTER TABLE "message_logs" ADD COLUMN "wa_message_id" text;--> statement-breakpoint
ALTER TABLE "message_logs" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "optout_keywords" text DEFAULT 'STOP, berhenti, unsubscribe' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "fail_streak_pause" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "pause_hours" integer DEFAULT 6 NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapp_accounts" ADD COLUMN "paused_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "whatsapp_accounts" ADD COLUMN "pause_reason" text;--> statement-breakpoint
ALTER TABLE "whatsapp_accounts" ADD COLUMN "fail_streak" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapp_accounts" ADD COLUMN "drops" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapp_accounts" ADD COLUMN "drops_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incoming_messages" ADD CONSTRAINT "incoming_messages_whatsapp_id_whatsapp_accounts_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapp_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incoming_messages" ADD CONSTRAINT "incoming_messages_phone_number_id_phone_numbers_id_fk" FOREIGN KEY ("phone_number_id") REFERENCES "public"."phone_numbers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "incoming_messages_whatsapp_idx" ON "incoming_messages" USING btree ("whatsapp_id","created_at");--> statement-breakpoint
CREATE INDEX "incoming_messages_sender_idx" ON "incoming_messages" USING btree ("sender");--> statement-breakpoint
CREATE INDEX "message_logs_wa_message_idx" ON "message_logs" USING btree ("wa_message_id");