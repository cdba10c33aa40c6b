DROP INDEX "events_dialogue_idx";--> statement-breakpoint
DROP INDEX "events_object_idx";--> statement-breakpoint
DROP INDEX "events_created_idx";--> statement-breakpoint
DROP INDEX "events_seq_key";--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "data" DROP NOT NULL;--> statement-breakpoint
CREATE INDEX "events_erasure_idx" ON "events" USING btree ("project_id","dialogue_id","object_id");--> statement-breakpoint
CREATE UNIQUE INDEX "events_seq_key" ON "events" USING btree ("project_id","seq") WHERE seq IS NOT NULL;