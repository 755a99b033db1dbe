CREATE TABLE "message_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"media" text,
	"text" text DEFAULT '' NOT NULL,
	"text_wa" text DEFAULT '' NOT NULL,
	"button" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"count_use" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "phone_numbers" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"in_use" integer DEFAULT 0 NOT NULL,
	"count_success" integer DEFAULT 0 NOT NULL,
	"count_fail" integer DEFAULT 0 NOT NULL,
	"last_sent" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "table_stats" (
	"name" text PRIMARY KEY NOT NULL,
	"row_count" bigint DEFAULT 0 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "levels" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"blast_fee" integer NOT NULL,
	"requirement_blast" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bonuses" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"admin_id" integer,
	"nominal" bigint NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"whatsapp_id" integer,
	"phone_number_id" integer,
	"template_id" integer,
	"target" text NOT NULL,
	"status" text NOT NULL,
	"fee" integer DEFAULT 0 NOT NULL,
	"referrer_id" integer,
	"referral_fee" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"nominal" bigint NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"account_name" text,
	"account_bank" text,
	"account_number" text,
	"processed_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "proxies" (
	"id" serial PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"count_use" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"interval_min" integer NOT NULL,
	"interval_max" integer NOT NULL,
	"price" integer NOT NULL,
	"bank_names" text NOT NULL,
	"colors" text NOT NULL,
	"referral_percent" integer DEFAULT 0 NOT NULL,
	"info" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "settings_single_row" CHECK ("settings"."id" = 1),
	CONSTRAINT "settings_referral_percent_range" CHECK ("settings"."referral_percent" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "generator_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"generator_id" integer NOT NULL,
	"number" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "generators" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"whatsapp_id" integer,
	"start_number" bigint NOT NULL,
	"end_number" bigint NOT NULL,
	"current_number" bigint,
	"b_insert" integer DEFAULT 0 NOT NULL,
	"interval_min" integer DEFAULT 1 NOT NULL,
	"interval_max" integer DEFAULT 2 NOT NULL,
	"count_success" integer DEFAULT 0 NOT NULL,
	"count_fail" integer DEFAULT 0 NOT NULL,
	"progress" numeric(5, 2) DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'idle' NOT NULL,
	"state" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "validator_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"validator_id" integer NOT NULL,
	"number" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "validators" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"whatsapp_id" integer,
	"b_insert" integer DEFAULT 0 NOT NULL,
	"interval_min" integer DEFAULT 1 NOT NULL,
	"interval_max" integer DEFAULT 2 NOT NULL,
	"file_name" text NOT NULL,
	"file_url" text NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"count_success" integer DEFAULT 0 NOT NULL,
	"count_fail" integer DEFAULT 0 NOT NULL,
	"progress" numeric(5, 2) DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'idle' NOT NULL,
	"state" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"firstname" text NOT NULL,
	"lastname" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" text DEFAULT 'member' NOT NULL,
	"level_id" integer,
	"blast_fee" integer,
	"blast_interval_min" integer,
	"blast_interval_max" integer,
	"referral_code" text NOT NULL,
	"referrer_id" integer,
	"account_name" text,
	"account_bank" text,
	"account_number" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whatsapp_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"clientid" text NOT NULL,
	"user_id" integer NOT NULL,
	"previous_device_id" text,
	"phonenumber" text,
	"pushname" text,
	"server" text,
	"serialized" text,
	"proxy_id" integer,
	"reconnect" integer DEFAULT 0 NOT NULL,
	"interval" integer,
	"state" text,
	"status" text DEFAULT 'idle' NOT NULL,
	"count_success" integer DEFAULT 0 NOT NULL,
	"count_fail" integer DEFAULT 0 NOT NULL,
	"income" bigint DEFAULT 0 NOT NULL,
	"suspended" boolean DEFAULT false NOT NULL,
	"suspended_count" integer DEFAULT 0 NOT NULL,
	"worker_id" text,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whatsapp_sessions" (
	"session_id" text PRIMARY KEY NOT NULL,
	"data" "bytea" NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bonuses" ADD CONSTRAINT "bonuses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonuses" ADD CONSTRAINT "bonuses_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_logs" ADD CONSTRAINT "message_logs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_logs" ADD CONSTRAINT "message_logs_whatsapp_id_whatsapp_accounts_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapp_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_logs" ADD CONSTRAINT "message_logs_phone_number_id_phone_numbers_id_fk" FOREIGN KEY ("phone_number_id") REFERENCES "public"."phone_numbers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_logs" ADD CONSTRAINT "message_logs_template_id_message_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."message_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_logs" ADD CONSTRAINT "message_logs_referrer_id_users_id_fk" FOREIGN KEY ("referrer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_processed_by_users_id_fk" FOREIGN KEY ("processed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generator_results" ADD CONSTRAINT "generator_results_generator_id_generators_id_fk" FOREIGN KEY ("generator_id") REFERENCES "public"."generators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generators" ADD CONSTRAINT "generators_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generators" ADD CONSTRAINT "generators_whatsapp_id_whatsapp_accounts_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapp_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "validator_results" ADD CONSTRAINT "validator_results_validator_id_validators_id_fk" FOREIGN KEY ("validator_id") REFERENCES "public"."validators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "validators" ADD CONSTRAINT "validators_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "validators" ADD CONSTRAINT "validators_whatsapp_id_whatsapp_accounts_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapp_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_level_id_levels_id_fk" FOREIGN KEY ("level_id") REFERENCES "public"."levels"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_referrer_id_users_id_fk" FOREIGN KEY ("referrer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_accounts" ADD CONSTRAINT "whatsapp_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_accounts" ADD CONSTRAINT "whatsapp_accounts_proxy_id_proxies_id_fk" FOREIGN KEY ("proxy_id") REFERENCES "public"."proxies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_templates_status_use_idx" ON "message_templates" USING btree ("status","count_use");--> statement-breakpoint
CREATE UNIQUE INDEX "phone_numbers_number_uq" ON "phone_numbers" USING btree ("number" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "phone_numbers_unblasted_idx" ON "phone_numbers" USING btree ("id") WHERE "phone_numbers"."status" = 'active' and "phone_numbers"."last_sent" is null;--> statement-breakpoint
CREATE INDEX "phone_numbers_status_idx" ON "phone_numbers" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "bonuses_user_created_idx" ON "bonuses" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "bonuses_created_idx" ON "bonuses" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "message_logs_user_created_idx" ON "message_logs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "message_logs_user_status_idx" ON "message_logs" USING btree ("user_id","status");--> statement-breakpoint
CREATE INDEX "message_logs_created_status_idx" ON "message_logs" USING btree ("created_at","status");--> statement-breakpoint
CREATE INDEX "message_logs_whatsapp_idx" ON "message_logs" USING btree ("whatsapp_id");--> statement-breakpoint
CREATE INDEX "message_logs_referrer_idx" ON "message_logs" USING btree ("referrer_id");--> statement-breakpoint
CREATE INDEX "message_logs_phone_idx" ON "message_logs" USING btree ("phone_number_id");--> statement-breakpoint
CREATE INDEX "withdrawals_user_created_idx" ON "withdrawals" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "withdrawals_status_created_idx" ON "withdrawals" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "proxies_value_uq" ON "proxies" USING btree ("value");--> statement-breakpoint
CREATE INDEX "proxies_status_use_idx" ON "proxies" USING btree ("status","count_use","id");--> statement-breakpoint
CREATE INDEX "proxies_count_use_idx" ON "proxies" USING btree ("count_use");--> statement-breakpoint
CREATE UNIQUE INDEX "generator_results_uq" ON "generator_results" USING btree ("generator_id","number");--> statement-breakpoint
CREATE INDEX "generators_user_created_idx" ON "generators" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "generators_status_idx" ON "generators" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "validator_results_uq" ON "validator_results" USING btree ("validator_id","number");--> statement-breakpoint
CREATE INDEX "validators_user_created_idx" ON "validators" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "validators_status_idx" ON "validators" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_uq" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_referral_code_uq" ON "users" USING btree ("referral_code");--> statement-breakpoint
CREATE INDEX "users_role_created_idx" ON "users" USING btree ("role","created_at");--> statement-breakpoint
CREATE INDEX "users_referrer_idx" ON "users" USING btree ("referrer_id","created_at");--> statement-breakpoint
CREATE INDEX "users_level_idx" ON "users" USING btree ("level_id");--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapp_clientid_uq" ON "whatsapp_accounts" USING btree ("clientid");--> statement-breakpoint
CREATE INDEX "whatsapp_user_state_idx" ON "whatsapp_accounts" USING btree ("user_id","state");--> statement-breakpoint
CREATE INDEX "whatsapp_state_idx" ON "whatsapp_accounts" USING btree ("state");--> statement-breakpoint
CREATE INDEX "whatsapp_phonenumber_idx" ON "whatsapp_accounts" USING btree ("phonenumber");--> statement-breakpoint
CREATE INDEX "whatsapp_worker_idx" ON "whatsapp_accounts" USING btree ("worker_id","lease_until");