CREATE TABLE "erasures" (
	"project_id" text NOT NULL,
	"id" text NOT NULL,
	"namespace" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"lease_until" timestamp (3) with time zone,
	"created" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp (3) with time zone,
	CONSTRAINT "erasures_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
ALTER TABLE "dialogues" ADD COLUMN "forked_from_dialogue_id" text;--> statement-breakpoint
ALTER TABLE "dialogues" ADD COLUMN "forked_from_message_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "erasures_pending_key" ON "erasures" USING btree ("project_id","namespace") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "erasures_due_idx" ON "erasures" USING btree ("created") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "dialogues_forked_idx" ON "dialogues" USING btree ("project_id","forked_from_dialogue_id","created","id") WHERE forked_from_dialogue_id IS NOT NULL;