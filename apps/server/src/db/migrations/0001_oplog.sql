CREATE TABLE "advertiser_assignments" (
	"ent_id" text NOT NULL,
	"advertiser_account_id" text NOT NULL,
	"staff_account_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "advertiser_assignments_ent_id_advertiser_account_id_staff_account_id_pk" PRIMARY KEY("ent_id","advertiser_account_id","staff_account_id")
);
--> statement-breakpoint
CREATE TABLE "advertisers" (
	"account_id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operation_log_exports" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"account_id" text NOT NULL,
	"filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"file_name" text NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "operation_log_exports_status_check" CHECK ("operation_log_exports"."status" in ('pending', 'running', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "operation_logs" ADD COLUMN "dept_id" text;--> statement-breakpoint
ALTER TABLE "advertiser_assignments" ADD CONSTRAINT "advertiser_assignments_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advertiser_assignments" ADD CONSTRAINT "advertiser_assignments_advertiser_account_id_advertisers_account_id_fk" FOREIGN KEY ("advertiser_account_id") REFERENCES "public"."advertisers"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advertiser_assignments" ADD CONSTRAINT "advertiser_assignments_staff_account_id_accounts_id_fk" FOREIGN KEY ("staff_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advertisers" ADD CONSTRAINT "advertisers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advertisers" ADD CONSTRAINT "advertisers_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operation_log_exports" ADD CONSTRAINT "operation_log_exports_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operation_log_exports" ADD CONSTRAINT "operation_log_exports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "advertiser_assignments_ent_staff_idx" ON "advertiser_assignments" USING btree ("ent_id","staff_account_id");--> statement-breakpoint
CREATE INDEX "advertisers_ent_created_idx" ON "advertisers" USING btree ("ent_id","created_at");--> statement-breakpoint
CREATE INDEX "operation_log_exports_account_idx" ON "operation_log_exports" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "operation_logs_ent_dept_created_idx" ON "operation_logs" USING btree ("ent_id","dept_id","created_at");--> statement-breakpoint
CREATE INDEX "operation_logs_created_idx" ON "operation_logs" USING btree ("created_at");