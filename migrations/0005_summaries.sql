CREATE TABLE "summaries" (
	"project_id" text NOT NULL,
	"id" text NOT NULL,
	"dialogue_id" text NOT NULL,
	"namespace" text,
	"status" text NOT NULL,
	"content" text,
	"content_token_count" integer,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"from_created" timestamp (3) with time zone,
	"to_created" timestamp (3) with time zone,
	"message_count" integer NOT NULL,
	"summarized_count" integer NOT NULL,
	"skipped_count" integer NOT NULL,
	"error" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"covers_seq" bigint,
	"range_start_created" timestamp (3) with time zone,
	"range_start_seq" bigint,
	"range_end_created" timestamp (3) with time zone,
	"range_end_seq" bigint,
	"created" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"modified" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "summaries_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
ALTER TABLE "dialogues" ADD COLUMN "summary_id" text;--> statement-breakpoint
ALTER TABLE "summaries" ADD CONSTRAINT "summaries_dialogue_fk" FOREIGN KEY ("project_id","dialogue_id") REFERENCES "public"."dialogues"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "summaries_dialogue_idx" ON "summaries" USING btree ("project_id","dialogue_id","created","id");