CREATE TABLE "monitor_photos" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"task_id" text NOT NULL,
	"key" text NOT NULL,
	"status" text DEFAULT 'uploading' NOT NULL,
	"content_type" text NOT NULL,
	"size" integer DEFAULT 0 NOT NULL,
	"taken_at" timestamp with time zone,
	"latitude" double precision,
	"longitude" double precision,
	"source" text DEFAULT 'none' NOT NULL,
	"browser_taken_at" timestamp with time zone,
	"browser_latitude" double precision,
	"browser_longitude" double precision,
	"distance_m" integer,
	"far" boolean DEFAULT false NOT NULL,
	"scheduled" boolean,
	"uploaded_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitor_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"dept_id" text,
	"owner_id" text,
	"name" text NOT NULL,
	"monitor_account_id" text NOT NULL,
	"ad_ids" jsonb NOT NULL,
	"device_ids" jsonb NOT NULL,
	"start_date" text NOT NULL,
	"end_date" text NOT NULL,
	"photos_required" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitor_tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"plan_id" text NOT NULL,
	"dept_id" text,
	"owner_id" text,
	"device_id" text NOT NULL,
	"monitor_account_id" text NOT NULL,
	"state" text DEFAULT 'pendingView' NOT NULL,
	"closed" boolean DEFAULT false NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"viewed_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monitor_tasks_state_check" CHECK ("monitor_tasks"."state" in ('pendingView', 'pending', 'completed', 'notCompleted', 'overdue'))
);
--> statement-breakpoint
ALTER TABLE "monitor_photos" ADD CONSTRAINT "monitor_photos_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_photos" ADD CONSTRAINT "monitor_photos_task_id_monitor_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."monitor_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_photos" ADD CONSTRAINT "monitor_photos_uploaded_by_accounts_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_plans" ADD CONSTRAINT "monitor_plans_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_plans" ADD CONSTRAINT "monitor_plans_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_plans" ADD CONSTRAINT "monitor_plans_monitor_account_id_accounts_id_fk" FOREIGN KEY ("monitor_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_tasks" ADD CONSTRAINT "monitor_tasks_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_tasks" ADD CONSTRAINT "monitor_tasks_plan_id_monitor_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."monitor_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_tasks" ADD CONSTRAINT "monitor_tasks_monitor_account_id_accounts_id_fk" FOREIGN KEY ("monitor_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "monitor_photos_task_idx" ON "monitor_photos" USING btree ("task_id","created_at");--> statement-breakpoint
CREATE INDEX "monitor_plans_ent_created_idx" ON "monitor_plans" USING btree ("ent_id","created_at");--> statement-breakpoint
CREATE INDEX "monitor_tasks_ent_plan_idx" ON "monitor_tasks" USING btree ("ent_id","plan_id");--> statement-breakpoint
CREATE INDEX "monitor_tasks_monitor_idx" ON "monitor_tasks" USING btree ("monitor_account_id","created_at");--> statement-breakpoint
CREATE INDEX "monitor_tasks_due_idx" ON "monitor_tasks" USING btree ("due_at") WHERE "monitor_tasks"."state" in ('pendingView', 'pending') and not "monitor_tasks"."closed";