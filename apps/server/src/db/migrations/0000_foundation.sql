CREATE TABLE "account_departments" (
	"ent_id" text NOT NULL,
	"account_id" text NOT NULL,
	"dept_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_departments_ent_id_account_id_dept_id_pk" PRIMARY KEY("ent_id","account_id","dept_id")
);
--> statement-breakpoint
CREATE TABLE "account_roles" (
	"ent_id" text NOT NULL,
	"account_id" text NOT NULL,
	"role_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_roles_ent_id_account_id_role_id_pk" PRIMARY KEY("ent_id","account_id","role_id")
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"user_no" integer GENERATED ALWAYS AS IDENTITY (sequence name "accounts_user_no_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 10001 CACHE 1),
	"ent_id" text NOT NULL,
	"login_name" text NOT NULL,
	"real_name" text DEFAULT '' NOT NULL,
	"password_hash" text NOT NULL,
	"phone" text,
	"email" text,
	"status" text DEFAULT 'enabled' NOT NULL,
	"account_type" text DEFAULT 'enterprise' NOT NULL,
	"is_ent_admin" boolean DEFAULT false NOT NULL,
	"third_monitor" boolean DEFAULT false NOT NULL,
	"update_pwd" boolean DEFAULT false NOT NULL,
	"open_wx_login" boolean DEFAULT false NOT NULL,
	"current_dept_id" text,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_status_check" CHECK ("accounts"."status" in ('enabled', 'paused')),
	CONSTRAINT "accounts_type_check" CHECK ("accounts"."account_type" in ('individual', 'enterprise'))
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text DEFAULT 'custom' NOT NULL,
	"dept_id" text,
	"data_scope" text DEFAULT 'self' NOT NULL,
	"permission_codes" text[] DEFAULT '{}'::text[] NOT NULL,
	"builtin" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "roles_data_scope_check" CHECK ("roles"."data_scope" in ('self', 'dept_and_below', 'dept_only'))
);
--> statement-breakpoint
CREATE TABLE "meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitor_applications" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"notice_id" text NOT NULL,
	"applicant_account_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monitor_applications_status_check" CHECK ("monitor_applications"."status" in ('pending', 'agreed', 'refused'))
);
--> statement-breakpoint
CREATE TABLE "monitor_grants" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"monitor_account_id" text NOT NULL,
	"application_id" text NOT NULL,
	"granted_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "notices" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text,
	"type" text DEFAULT 'general' NOT NULL,
	"title" text NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"push_platform" integer DEFAULT 1 NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "station_letters" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"account_id" text,
	"content" text NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operation_logs" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"account_id" text,
	"login_name" text DEFAULT '' NOT NULL,
	"module" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text,
	"target_id" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"ip" text,
	"trace_key" text,
	"endpoint" text,
	"result" text DEFAULT 'success' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operation_logs_result_check" CHECK ("operation_logs"."result" in ('success', 'failure'))
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"ent_id" text NOT NULL,
	"account_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_reason" text,
	"ip" text,
	"user_agent" text,
	"device_uuid" text,
	CONSTRAINT "sessions_ended_reason_check" CHECK ("sessions"."ended_reason" in ('logout', 'paused', 'kicked'))
);
--> statement-breakpoint
CREATE TABLE "departments" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"parent_id" text,
	"name" text NOT NULL,
	"path" text NOT NULL,
	"depth" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "enterprises" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"parent_id" text,
	"name" text NOT NULL,
	"social_credit_code" text,
	"status" text DEFAULT 'enabled' NOT NULL,
	"welcome_speech" text DEFAULT '' NOT NULL,
	"logo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "enterprises_kind_check" CHECK ("enterprises"."kind" in ('provider', 'enterprise', 'agent')),
	CONSTRAINT "enterprises_status_check" CHECK ("enterprises"."status" in ('enabled', 'paused'))
);
--> statement-breakpoint
ALTER TABLE "account_departments" ADD CONSTRAINT "account_departments_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_departments" ADD CONSTRAINT "account_departments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_departments" ADD CONSTRAINT "account_departments_dept_id_departments_id_fk" FOREIGN KEY ("dept_id") REFERENCES "public"."departments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_roles" ADD CONSTRAINT "account_roles_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_roles" ADD CONSTRAINT "account_roles_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_roles" ADD CONSTRAINT "account_roles_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_current_dept_id_departments_id_fk" FOREIGN KEY ("current_dept_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_dept_id_departments_id_fk" FOREIGN KEY ("dept_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_applications" ADD CONSTRAINT "monitor_applications_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_applications" ADD CONSTRAINT "monitor_applications_notice_id_notices_id_fk" FOREIGN KEY ("notice_id") REFERENCES "public"."notices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_applications" ADD CONSTRAINT "monitor_applications_applicant_account_id_accounts_id_fk" FOREIGN KEY ("applicant_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_applications" ADD CONSTRAINT "monitor_applications_decided_by_accounts_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_grants" ADD CONSTRAINT "monitor_grants_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_grants" ADD CONSTRAINT "monitor_grants_monitor_account_id_accounts_id_fk" FOREIGN KEY ("monitor_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_grants" ADD CONSTRAINT "monitor_grants_application_id_monitor_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."monitor_applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_grants" ADD CONSTRAINT "monitor_grants_granted_by_accounts_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "station_letters" ADD CONSTRAINT "station_letters_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "station_letters" ADD CONSTRAINT "station_letters_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operation_logs" ADD CONSTRAINT "operation_logs_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "departments" ADD CONSTRAINT "departments_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "departments" ADD CONSTRAINT "departments_parent_id_departments_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprises" ADD CONSTRAINT "enterprises_parent_id_enterprises_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_departments_ent_dept_idx" ON "account_departments" USING btree ("ent_id","dept_id");--> statement-breakpoint
CREATE INDEX "account_roles_ent_role_idx" ON "account_roles" USING btree ("ent_id","role_id");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_login_name_key" ON "accounts" USING btree (lower("login_name"));--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_user_no_key" ON "accounts" USING btree ("user_no");--> statement-breakpoint
CREATE INDEX "accounts_ent_status_idx" ON "accounts" USING btree ("ent_id","status");--> statement-breakpoint
CREATE INDEX "accounts_ent_dept_idx" ON "accounts" USING btree ("ent_id","current_dept_id");--> statement-breakpoint
CREATE INDEX "roles_ent_name_idx" ON "roles" USING btree ("ent_id","name");--> statement-breakpoint
CREATE INDEX "roles_ent_dept_idx" ON "roles" USING btree ("ent_id","dept_id");--> statement-breakpoint
CREATE INDEX "monitor_applications_ent_notice_idx" ON "monitor_applications" USING btree ("ent_id","notice_id");--> statement-breakpoint
CREATE INDEX "monitor_applications_ent_status_idx" ON "monitor_applications" USING btree ("ent_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "monitor_grants_ent_account_key" ON "monitor_grants" USING btree ("ent_id","monitor_account_id");--> statement-breakpoint
CREATE INDEX "notices_ent_platform_created_idx" ON "notices" USING btree ("ent_id","push_platform","created_at");--> statement-breakpoint
CREATE INDEX "station_letters_ent_account_idx" ON "station_letters" USING btree ("ent_id","account_id","created_at");--> statement-breakpoint
CREATE INDEX "operation_logs_ent_created_idx" ON "operation_logs" USING btree ("ent_id","created_at");--> statement-breakpoint
CREATE INDEX "operation_logs_ent_account_created_idx" ON "operation_logs" USING btree ("ent_id","account_id","created_at");--> statement-breakpoint
CREATE INDEX "operation_logs_ent_module_created_idx" ON "operation_logs" USING btree ("ent_id","module","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_token_hash_key" ON "sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "sessions_ent_account_idx" ON "sessions" USING btree ("ent_id","account_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "departments_ent_path_idx" ON "departments" USING btree ("ent_id","path" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "departments_ent_parent_idx" ON "departments" USING btree ("ent_id","parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "enterprises_social_credit_code_key" ON "enterprises" USING btree ("social_credit_code");--> statement-breakpoint
CREATE INDEX "enterprises_parent_idx" ON "enterprises" USING btree ("parent_id");