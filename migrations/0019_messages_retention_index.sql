-- D184: the retention sweeper's index orders a project's messages by an expression of `created`
-- that no other statement uses. On (project_id, created) itself, PostgreSQL sometimes served a page
-- of one dialogue from it, reading the project's newer messages one by one. Built while the table
-- is locked for writes, like every index of these migrations.
DROP INDEX "messages_created_idx";--> statement-breakpoint
CREATE INDEX "messages_retention_idx" ON "messages" USING btree ("project_id",("created" AT TIME ZONE 'UTC'));