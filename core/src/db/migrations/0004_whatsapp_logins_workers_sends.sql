CREATE TABLE "whatsapp_logins" (
	"device_id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"requested_by" integer NOT NULL,
	"proxy_id" integer,
	"worker_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whatsapp_sends" (
	"id" text PRIMARY KEY NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"requested_by" integer,
	"message" text NOT NULL,
	"receivers" text[] NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"count_success" integer DEFAULT 0 NOT NULL,
	"count_fail" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'sending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whatsapp_workers" (
	"worker_id" text PRIMARY KEY NOT NULL,
	"max_logins" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "whatsapp_logins" ADD CONSTRAINT "whatsapp_logins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_logins" ADD CONSTRAINT "whatsapp_logins_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_logins" ADD CONSTRAINT "whatsapp_logins_proxy_id_proxies_id_fk" FOREIGN KEY ("proxy_id") REFERENCES "public"."proxies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_sends" ADD CONSTRAINT "whatsapp_sends_whatsapp_id_whatsapp_accounts_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapp_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_sends" ADD CONSTRAINT "whatsapp_sends_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "whatsapp_logins_requester_idx" ON "whatsapp_logins" USING btree ("requested_by","expires_at");--> statement-breakpoint
CREATE INDEX "whatsapp_logins_expires_idx" ON "whatsapp_logins" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "whatsapp_logins_proxy_idx" ON "whatsapp_logins" USING btree ("proxy_id");--> statement-breakpoint
CREATE INDEX "whatsapp_sends_account_idx" ON "whatsapp_sends" USING btree ("whatsapp_id","status","created_at");