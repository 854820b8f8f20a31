CREATE TABLE "material_categories" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "material_folders" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"parent_id" text,
	"path" text NOT NULL,
	"depth" integer NOT NULL,
	"name" text NOT NULL,
	"dept_id" text,
	"owner_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "material_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"account_id" text NOT NULL,
	"dept_id" text,
	"folder_id" text NOT NULL,
	"category_id" text,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"expected_size" bigint NOT NULL,
	"material_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "materials" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"folder_id" text NOT NULL,
	"category_id" text,
	"dept_id" text,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"mime" text DEFAULT '' NOT NULL,
	"size" bigint DEFAULT 0 NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"sha256" text,
	"width" integer,
	"height" integer,
	"duration" double precision,
	"codec" text,
	"pages" integer,
	"file_key" text,
	"thumb_key" text,
	"poster_key" text,
	"url" text,
	"status" text DEFAULT 'processing' NOT NULL,
	"invalid_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "materials_type_check" CHECK ("materials"."type" in ('image', 'video', 'audio', 'document', 'archive', 'web', 'stream')),
	CONSTRAINT "materials_status_check" CHECK ("materials"."status" in ('processing', 'ready', 'invalid'))
);
--> statement-breakpoint
CREATE TABLE "storage_quotas" (
	"ent_id" text PRIMARY KEY NOT NULL,
	"quota_bytes" bigint NOT NULL,
	"used_bytes" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "material_categories" ADD CONSTRAINT "material_categories_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_folders" ADD CONSTRAINT "material_folders_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_folders" ADD CONSTRAINT "material_folders_dept_id_departments_id_fk" FOREIGN KEY ("dept_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_folders" ADD CONSTRAINT "material_folders_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_uploads" ADD CONSTRAINT "material_uploads_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_uploads" ADD CONSTRAINT "material_uploads_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "materials" ADD CONSTRAINT "materials_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "materials" ADD CONSTRAINT "materials_folder_id_material_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."material_folders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "materials" ADD CONSTRAINT "materials_category_id_material_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."material_categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "materials" ADD CONSTRAINT "materials_dept_id_departments_id_fk" FOREIGN KEY ("dept_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "materials" ADD CONSTRAINT "materials_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage_quotas" ADD CONSTRAINT "storage_quotas_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "material_categories_ent_name_key" ON "material_categories" USING btree ("ent_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "material_folders_sibling_name_key" ON "material_folders" USING btree ("ent_id",coalesce("parent_id", ''),lower("name"));--> statement-breakpoint
CREATE INDEX "material_folders_ent_path_idx" ON "material_folders" USING btree ("ent_id","path" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "material_folders_parent_idx" ON "material_folders" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "material_uploads_key_key" ON "material_uploads" USING btree ("key");--> statement-breakpoint
CREATE INDEX "material_uploads_ent_pending_idx" ON "material_uploads" USING btree ("ent_id") WHERE "material_uploads"."material_id" is null;--> statement-breakpoint
CREATE INDEX "material_uploads_expires_idx" ON "material_uploads" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "materials_ent_created_idx" ON "materials" USING btree ("ent_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "materials_folder_created_idx" ON "materials" USING btree ("folder_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "materials_ent_type_created_idx" ON "materials" USING btree ("ent_id","type","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "materials_ent_dept_created_idx" ON "materials" USING btree ("ent_id","dept_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "materials_ent_owner_created_idx" ON "materials" USING btree ("ent_id","owner_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "materials_ent_sha_idx" ON "materials" USING btree ("ent_id","sha256");--> statement-breakpoint
CREATE INDEX "materials_category_idx" ON "materials" USING btree ("category_id");