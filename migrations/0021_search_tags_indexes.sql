-- D186: the tags of messages, dialogues and memories are indexed, so that a filtered search counts
-- the rows its tags leave (and finds them) without reading the project's other rows, and a list by
-- a rare tag reads its own rows. A pending list of at most 256 kB, as the full-text indexes (D176).
CREATE INDEX "dialogues_tags_idx" ON "dialogues" USING gin ("tags") WITH (gin_pending_list_limit=256);--> statement-breakpoint
CREATE INDEX "memories_tags_idx" ON "memories" USING gin ("tags") WITH (gin_pending_list_limit=256);--> statement-breakpoint
CREATE INDEX "messages_tags_idx" ON "messages" USING gin ("tags") WITH (gin_pending_list_limit=256);