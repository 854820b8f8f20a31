CREATE TABLE "poster_templates" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"dept_id" text,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"document" jsonb NOT NULL,
	"field_count" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "posters" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"template_id" text NOT NULL,
	"template_name" text NOT NULL,
	"account_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"format" text NOT NULL,
	"file_key" text NOT NULL,
	"size" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"material_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"made_at" timestamp with time zone,
	CONSTRAINT "posters_status_check" CHECK ("posters"."status" in ('pending', 'done')),
	CONSTRAINT "posters_format_check" CHECK ("posters"."format" in ('png', 'jpeg'))
);
--> statement-breakpoint
ALTER TABLE "poster_templates" ADD CONSTRAINT "poster_templates_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poster_templates" ADD CONSTRAINT "poster_templates_dept_id_departments_id_fk" FOREIGN KEY ("dept_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poster_templates" ADD CONSTRAINT "poster_templates_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "posters" ADD CONSTRAINT "posters_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "posters" ADD CONSTRAINT "posters_template_id_poster_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."poster_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "posters" ADD CONSTRAINT "posters_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "poster_templates_ent_updated_idx" ON "poster_templates" USING btree ("ent_id","updated_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "poster_templates_ent_dept_idx" ON "poster_templates" USING btree ("ent_id","dept_id");--> statement-breakpoint
CREATE INDEX "posters_template_made_idx" ON "posters" USING btree ("template_id","made_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "posters_ent_made_idx" ON "posters" USING btree ("ent_id","made_at" DESC NULLS LAST,"id");