ALTER TABLE "dialogues" ADD COLUMN "expires_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "expires_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "dialogues_expires_idx" ON "dialogues" USING btree ("project_id","expires_at") WHERE expires_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX "dialogues_modified_idx" ON "dialogues" USING btree ("project_id","modified");--> statement-breakpoint
CREATE INDEX "memories_expires_idx" ON "memories" USING btree ("project_id","expires_at") WHERE expires_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX "memories_modified_idx" ON "memories" USING btree ("project_id","modified");--> statement-breakpoint
CREATE INDEX "messages_created_idx" ON "messages" USING btree ("project_id","created");