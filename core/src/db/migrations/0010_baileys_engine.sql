CREATE TABLE "whatsapp_session_keys" (
	"session_id" text NOT NULL,
	"type" text NOT NULL,
	"key_id" text NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "whatsapp_session_keys_session_id_type_key_id_pk" PRIMARY KEY("session_id","type","key_id")
);
--> statement-breakpoint
ALTER TABLE "whatsapp_accounts" ADD COLUMN "engine" text;--> statement-breakpoint
ALTER TABLE "whatsapp_logins" ADD COLUMN "engine" text;