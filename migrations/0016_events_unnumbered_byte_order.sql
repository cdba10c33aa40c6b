DROP INDEX "events_unnumbered_idx";--> statement-breakpoint
CREATE INDEX "events_unnumbered_idx" ON "events" USING btree ("project_id",id COLLATE "C") WHERE seq IS NULL;