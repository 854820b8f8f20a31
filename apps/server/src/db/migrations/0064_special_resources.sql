CREATE TABLE "special_resource_inquiries" (
	"id" text PRIMARY KEY NOT NULL,
	"resource_id" text NOT NULL,
	"ent_id" text NOT NULL,
	"inquirer_id" text NOT NULL,
	"start_date" text NOT NULL,
	"end_date" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"quoted_price" integer,
	"answer" text DEFAULT '' NOT NULL,
	"answered_by" text,
	"answered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "special_resource_photos" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"resource_id" text,
	"key" text NOT NULL,
	"content_type" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "special_resources" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"targets" jsonb NOT NULL,
	"start_date" text NOT NULL,
	"end_date" text NOT NULL,
	"price" integer NOT NULL,
	"capacity" integer DEFAULT 1 NOT NULL,
	"state" text DEFAULT 'draft' NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "special_resources_price_check" CHECK ("special_resources"."price" >= 0),
	CONSTRAINT "special_resources_capacity_check" CHECK ("special_resources"."capacity" >= 1)
);
--> statement-breakpoint
ALTER TABLE "special_resource_inquiries" ADD CONSTRAINT "special_resource_inquiries_resource_id_special_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."special_resources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "special_resource_inquiries" ADD CONSTRAINT "special_resource_inquiries_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "special_resource_inquiries" ADD CONSTRAINT "special_resource_inquiries_inquirer_id_accounts_id_fk" FOREIGN KEY ("inquirer_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "special_resource_inquiries" ADD CONSTRAINT "special_resource_inquiries_answered_by_accounts_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "special_resource_photos" ADD CONSTRAINT "special_resource_photos_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "special_resource_photos" ADD CONSTRAINT "special_resource_photos_resource_id_special_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."special_resources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "special_resources" ADD CONSTRAINT "special_resources_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "special_resources" ADD CONSTRAINT "special_resources_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "special_inquiries_resource_state_idx" ON "special_resource_inquiries" USING btree ("resource_id","state");--> statement-breakpoint
CREATE INDEX "special_inquiries_ent_created_idx" ON "special_resource_inquiries" USING btree ("ent_id","created_at");--> statement-breakpoint
CREATE INDEX "special_resource_photos_resource_idx" ON "special_resource_photos" USING btree ("resource_id");--> statement-breakpoint
CREATE INDEX "special_resources_ent_state_idx" ON "special_resources" USING btree ("ent_id","state");