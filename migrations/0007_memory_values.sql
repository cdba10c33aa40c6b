ALTER TABLE "memories" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "memories" drop column "search_vector";--> statement-breakpoint
-- Hand-written (D57): a stored value becomes the JSON text of the value, and the searchable text of
-- the memories stored before is their label and value, as the old search vector read them.
UPDATE "memories" SET "search_text" = concat_ws(E'\n', "label", "value"), "value" = to_json("value")::text;--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, search_text)) STORED;--> statement-breakpoint
-- Hand-written: dropping the column dropped its index, which drizzle-kit does not re-create.
CREATE INDEX "memories_search_idx" ON "memories" USING gin ("search_vector");
