CREATE TABLE "event_sequences" (
	"project_id" text PRIMARY KEY NOT NULL,
	"last_seq" bigint DEFAULT 0 NOT NULL,
	"pruned_through" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"project_id" text NOT NULL,
	"id" text NOT NULL,
	"seq" bigint,
	"type" text NOT NULL,
	"namespace" text,
	"dialogue_id" text,
	"object_id" text NOT NULL,
	"data" text NOT NULL,
	"created" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "events_seq_key" ON "events" USING btree ("project_id","seq");--> statement-breakpoint
CREATE INDEX "events_unnumbered_idx" ON "events" USING btree ("project_id","id") WHERE seq IS NULL;--> statement-breakpoint
CREATE INDEX "events_dialogue_idx" ON "events" USING btree ("project_id","dialogue_id");--> statement-breakpoint
CREATE INDEX "events_object_idx" ON "events" USING btree ("project_id","object_id");--> statement-breakpoint
CREATE INDEX "events_created_idx" ON "events" USING btree ("created");