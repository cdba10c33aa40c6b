-- Citus distributes no table with an identity column and refuses ON DELETE SET NULL on a foreign
-- key that includes the distribution column (docs/scaling.md, "What changed for Citus"). The same
-- schema serves one server and a cluster, so both change here for every store.
-- Identity columns become sequence defaults (bigserial); each sequence continues after the
-- highest value given so far, so the order of existing rows is kept (D29).
ALTER TABLE "messages" ALTER COLUMN "seq" DROP IDENTITY IF EXISTS;--> statement-breakpoint
CREATE SEQUENCE IF NOT EXISTS "messages_seq_seq" AS bigint OWNED BY "messages"."seq";--> statement-breakpoint
SELECT setval('"messages_seq_seq"', coalesce(max("seq"), 0) + 1, false) FROM "messages";--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "seq" SET DEFAULT nextval('"messages_seq_seq"');--> statement-breakpoint
ALTER TABLE "embedding_jobs" ALTER COLUMN "id" DROP IDENTITY IF EXISTS;--> statement-breakpoint
CREATE SEQUENCE IF NOT EXISTS "embedding_jobs_id_seq" AS bigint OWNED BY "embedding_jobs"."id";--> statement-breakpoint
SELECT setval('"embedding_jobs_id_seq"', coalesce(max("id"), 0) + 1, false) FROM "embedding_jobs";--> statement-breakpoint
ALTER TABLE "embedding_jobs" ALTER COLUMN "id" SET DEFAULT nextval('"embedding_jobs_id_seq"');--> statement-breakpoint
-- The thread link keeps its foreign key without an action: deleting a parent clears its threads'
-- thread_of in the deleting transaction first (D23), as erasing a project does (D74).
ALTER TABLE "dialogues" DROP CONSTRAINT "dialogues_thread_of_fk";--> statement-breakpoint
ALTER TABLE "dialogues" ADD CONSTRAINT "dialogues_thread_of_fk" FOREIGN KEY ("project_id","thread_of") REFERENCES "public"."dialogues"("project_id","id") ON DELETE no action ON UPDATE no action;
