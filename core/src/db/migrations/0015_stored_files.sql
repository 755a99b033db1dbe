CREATE TABLE "stored_files" (
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"mimetype" text NOT NULL,
	"size" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stored_files_kind_name_pk" PRIMARY KEY("kind","name"),
	CONSTRAINT "stored_files_kind" CHECK ("stored_files"."kind" in ('template', 'validator'))
);
