CREATE TABLE "webhook_attempts" (
	"project_id" text NOT NULL,
	"id" text NOT NULL,
	"endpoint_id" text NOT NULL,
	"delivery_id" text NOT NULL,
	"event_id" text NOT NULL,
	"seq" bigint,
	"type" text NOT NULL,
	"dialogue_id" text,
	"object_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"response_status" integer,
	"response_body" text,
	"duration_ms" integer,
	"error" text,
	"created" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_attempts_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"project_id" text NOT NULL,
	"id" text NOT NULL,
	"endpoint_id" text NOT NULL,
	"event_id" text NOT NULL,
	"seq" bigint,
	"type" text NOT NULL,
	"namespace" text,
	"dialogue_id" text,
	"object_id" text NOT NULL,
	"data" text NOT NULL,
	"event_created" timestamp (3) with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp (3) with time zone,
	"created" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"project_id" text NOT NULL,
	"id" text NOT NULL,
	"url" text NOT NULL,
	"types" text[] DEFAULT '{}'::text[] NOT NULL,
	"namespace" text,
	"description" text,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_expires" timestamp (3) with time zone,
	"enabled" boolean DEFAULT true NOT NULL,
	"disabled_reason" text,
	"failing_since" timestamp (3) with time zone,
	"cursor_seq" bigint DEFAULT 0 NOT NULL,
	"created" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"modified" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_endpoints_project_id_id_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_project_id_endpoint_id_webhook_endpoints_project_id_id_fk" FOREIGN KEY ("project_id","endpoint_id") REFERENCES "public"."webhook_endpoints"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_project_id_endpoint_id_webhook_endpoints_project_id_id_fk" FOREIGN KEY ("project_id","endpoint_id") REFERENCES "public"."webhook_endpoints"("project_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_attempts_endpoint_idx" ON "webhook_attempts" USING btree ("project_id","endpoint_id","id");--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts" USING btree ("project_id","delivery_id","attempt");--> statement-breakpoint
CREATE INDEX "webhook_attempts_object_idx" ON "webhook_attempts" USING btree ("project_id","object_id");--> statement-breakpoint
CREATE INDEX "webhook_attempts_dialogue_idx" ON "webhook_attempts" USING btree ("project_id","dialogue_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_pending_idx" ON "webhook_deliveries" USING btree ("project_id","endpoint_id","dialogue_id","seq") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_object_idx" ON "webhook_deliveries" USING btree ("project_id","object_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_dialogue_idx" ON "webhook_deliveries" USING btree ("project_id","dialogue_id");