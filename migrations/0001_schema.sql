CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"key_hash" text NOT NULL,
	"key_prefix" text NOT NULL,
	"created" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "dialogues" (
	"project_id" text NOT NULL,
	"id" text NOT NULL,
	"namespace" text,
	"thread_of" text,
	"label" text,
	"status" text DEFAULT 'active' NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"summary" jsonb,
	"total_messages" integer DEFAULT 0 NOT NULL,
	"thread_count" integer DEFAULT 0 NOT NULL,
	"last_message_created" timestamp (3) with time zone,
	"search_text" text DEFAULT '' NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, search_text)) STORED,
	"embedding" vector,
	"embedding_model" text,
	"created" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"modified" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dialogues_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "embedding_jobs" (
	"project_id" text NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "embedding_jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"object_type" text NOT NULL,
	"dialogue_id" text DEFAULT '' NOT NULL,
	"object_id" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"run_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp (3) with time zone,
	"last_error" text,
	"created" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "embedding_jobs_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"project_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" integer NOT NULL,
	"response_body" text NOT NULL,
	"created" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_project_id_key_pk" PRIMARY KEY("project_id","key")
);
--> statement-breakpoint
CREATE TABLE "memories" (
	"project_id" text NOT NULL,
	"id" text NOT NULL,
	"namespace" text,
	"label" text,
	"value" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"metadata" jsonb,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(label, '') || ' ' || value)) STORED,
	"embedding" vector,
	"embedding_model" text,
	"created" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"modified" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memories_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"project_id" text NOT NULL,
	"dialogue_id" text NOT NULL,
	"id" text NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "messages_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"namespace" text,
	"role" text NOT NULL,
	"content" text NOT NULL,
	"content_length" integer NOT NULL,
	"name" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"metadata" jsonb,
	"search_text" text DEFAULT '' NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, search_text)) STORED,
	"embedding" vector,
	"embedding_model" text,
	"created" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"modified" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messages_project_id_dialogue_id_id_pk" PRIMARY KEY("project_id","dialogue_id","id")
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"modified" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_counters" (
	"project_id" text NOT NULL,
	"month" text NOT NULL,
	"shard" integer NOT NULL,
	"writes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_counters_project_id_month_shard_pk" PRIMARY KEY("project_id","month","shard")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dialogues" ADD CONSTRAINT "dialogues_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_dialogue_fk" FOREIGN KEY ("project_id","dialogue_id") REFERENCES "public"."dialogues"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_keys_project_idx" ON "api_keys" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "dialogues_list_idx" ON "dialogues" USING btree ("project_id","created","id");--> statement-breakpoint
CREATE INDEX "dialogues_thread_idx" ON "dialogues" USING btree ("project_id","thread_of","created","id");--> statement-breakpoint
CREATE INDEX "dialogues_search_idx" ON "dialogues" USING gin ("search_vector");--> statement-breakpoint
CREATE UNIQUE INDEX "embedding_jobs_object_key" ON "embedding_jobs" USING btree ("project_id","object_type","dialogue_id","object_id");--> statement-breakpoint
CREATE INDEX "embedding_jobs_due_idx" ON "embedding_jobs" USING btree ("run_at");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created");--> statement-breakpoint
CREATE INDEX "memories_list_idx" ON "memories" USING btree ("project_id","created","id");--> statement-breakpoint
CREATE INDEX "memories_search_idx" ON "memories" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "messages_order_idx" ON "messages" USING btree ("project_id","dialogue_id","created","seq");--> statement-breakpoint
CREATE INDEX "messages_search_idx" ON "messages" USING gin ("search_vector");