CREATE TABLE "project_erasures" (
	"id" text PRIMARY KEY NOT NULL,
	"erased_project_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"rows" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"lease_until" timestamp (3) with time zone,
	"created" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "project_erasures_pending_key" ON "project_erasures" USING btree ("erased_project_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "project_erasures_project_idx" ON "project_erasures" USING btree ("erased_project_id","created");