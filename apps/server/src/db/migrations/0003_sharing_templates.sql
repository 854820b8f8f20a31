CREATE TABLE "allocations" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"ref_type" text NOT NULL,
	"ref_id" text NOT NULL,
	"target_type" integer NOT NULL,
	"target_id" text NOT NULL,
	"dept_data_type" integer DEFAULT 1 NOT NULL,
	"inherited_from_type" text,
	"inherited_from_id" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "allocations_target_type_check" CHECK ("allocations"."target_type" in (1, 2)),
	CONSTRAINT "allocations_dept_data_type_check" CHECK ("allocations"."dept_data_type" in (1, 2))
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"dept_id" text,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"width" integer DEFAULT 1920 NOT NULL,
	"height" integer DEFAULT 1080 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "allocations" ADD CONSTRAINT "allocations_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allocations" ADD CONSTRAINT "allocations_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_dept_id_departments_id_fk" FOREIGN KEY ("dept_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "allocations_ref_target_key" ON "allocations" USING btree ("ent_id","ref_type","ref_id","target_type","target_id",coalesce("inherited_from_type", ''),coalesce("inherited_from_id", ''));--> statement-breakpoint
CREATE INDEX "allocations_ent_type_target_idx" ON "allocations" USING btree ("ent_id","ref_type","target_type","target_id","ref_id");--> statement-breakpoint
CREATE INDEX "templates_ent_updated_idx" ON "templates" USING btree ("ent_id","updated_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "templates_ent_dept_updated_idx" ON "templates" USING btree ("ent_id","dept_id","updated_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "templates_ent_owner_updated_idx" ON "templates" USING btree ("ent_id","owner_id","updated_at" DESC NULLS LAST,"id");