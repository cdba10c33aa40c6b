-- D185: one namespace's dialogues and memories (one end user's) in list order, so that listing
-- them reads their own rows, not the project's. Partial: rows outside any namespace are listed
-- by the project's list indexes.
CREATE INDEX "dialogues_namespace_idx" ON "dialogues" USING btree ("project_id","namespace","created","id") WHERE namespace IS NOT NULL;--> statement-breakpoint
CREATE INDEX "memories_namespace_idx" ON "memories" USING btree ("project_id","namespace","created","id") WHERE namespace IS NOT NULL;