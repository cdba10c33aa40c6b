ALTER TABLE "idempotency_keys" ALTER COLUMN "response_body" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "dialogues" ADD COLUMN "summary_covers_seq" bigint;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "object_refs" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "idempotency_keys_object_refs_idx" ON "idempotency_keys" USING gin ("object_refs");--> statement-breakpoint
-- Summaries made before this migration: they cover up to the message their upToMessageId names
-- (when that message is gone, the column stays NULL and any deletion in the dialogue removes the summary).
UPDATE "dialogues" AS d SET "summary_covers_seq" = m."seq"
FROM "messages" AS m
WHERE d."summary" IS NOT NULL AND m."project_id" = d."project_id" AND m."dialogue_id" = d."id"
  AND m."id" = d."summary"->>'upToMessageId';
