CREATE TABLE "campaign_topups" (
	"id" serial PRIMARY KEY NOT NULL,
	"campaign_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "phone_numbers_number_uq";--> statement-breakpoint
DROP INDEX "phone_numbers_unblasted_idx";--> statement-breakpoint
ALTER TABLE "message_templates" ADD COLUMN "campaign_id" integer;--> statement-breakpoint
ALTER TABLE "message_templates" ADD COLUMN "weight" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "message_templates" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "message_templates" ADD COLUMN "approved_by" integer;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD COLUMN "campaign_id" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "reserved" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "unknown" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "served_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "progress_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incoming_messages" ADD COLUMN "campaign_id" integer;--> statement-breakpoint
ALTER TABLE "message_logs" ADD COLUMN "campaign_id" integer;--> statement-breakpoint
ALTER TABLE "message_logs" ADD COLUMN "variant_id" integer;--> statement-breakpoint
ALTER TABLE "campaign_topups" ADD CONSTRAINT "campaign_topups_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_topups" ADD CONSTRAINT "campaign_topups_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_topups_campaign_idx" ON "campaign_topups" USING btree ("campaign_id","id");--> statement-breakpoint
ALTER TABLE "message_templates" ADD CONSTRAINT "message_templates_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD CONSTRAINT "phone_numbers_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_templates_campaign_idx" ON "message_templates" USING btree ("campaign_id") WHERE "message_templates"."campaign_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "phone_numbers_campaign_number_uq" ON "phone_numbers" USING btree ("campaign_id","number") WHERE "phone_numbers"."campaign_id" is not null;--> statement-breakpoint
CREATE INDEX "phone_numbers_campaign_by_number_idx" ON "phone_numbers" USING btree ("number") WHERE "phone_numbers"."campaign_id" is not null;--> statement-breakpoint
CREATE INDEX "incoming_messages_campaign_idx" ON "incoming_messages" USING btree ("campaign_id","id") WHERE "incoming_messages"."campaign_id" is not null;--> statement-breakpoint
CREATE INDEX "message_logs_campaign_idx" ON "message_logs" USING btree ("campaign_id","created_at") WHERE "message_logs"."campaign_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "phone_numbers_number_uq" ON "phone_numbers" USING btree ("number" text_pattern_ops) WHERE "phone_numbers"."campaign_id" is null;--> statement-breakpoint
CREATE INDEX "phone_numbers_unblasted_idx" ON "phone_numbers" USING btree ("campaign_id","id") WHERE "phone_numbers"."status" = 'active' and "phone_numbers"."last_sent" is null;--> statement-breakpoint
-- the phone number screens count the pool only (a campaign's targets are its own): the row-count
-- triggers of phone_numbers count the rows without a campaign
CREATE FUNCTION phone_pool_stats_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
  SELECT count(*) INTO n FROM new_rows WHERE campaign_id IS NULL;
  IF n > 0 THEN
    UPDATE table_stats SET row_count = row_count + n, version = version + 1 WHERE name = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION phone_pool_stats_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
  SELECT count(*) INTO n FROM old_rows WHERE campaign_id IS NULL;
  IF n > 0 THEN
    UPDATE table_stats SET row_count = row_count - n, version = version + 1 WHERE name = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER phone_numbers_stats_insert ON phone_numbers;
--> statement-breakpoint
DROP TRIGGER phone_numbers_stats_delete ON phone_numbers;
--> statement-breakpoint
CREATE TRIGGER phone_numbers_stats_insert AFTER INSERT ON phone_numbers
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION phone_pool_stats_after_insert();
--> statement-breakpoint
CREATE TRIGGER phone_numbers_stats_delete AFTER DELETE ON phone_numbers
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION phone_pool_stats_after_delete();
