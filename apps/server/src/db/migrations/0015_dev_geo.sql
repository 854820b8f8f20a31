CREATE TABLE "stores" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"dept_id" text,
	"owner_id" text,
	"name" text NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"poi" text DEFAULT '' NOT NULL,
	"province_code" text,
	"city_code" text,
	"district_code" text,
	"latitude" double precision,
	"longitude" double precision,
	"coord_approximate" boolean DEFAULT false NOT NULL,
	"contact_name" text DEFAULT '' NOT NULL,
	"contact_phone" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "poi" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "latitude" double precision;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "longitude" double precision;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "coord_approximate" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "province_code" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "city_code" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "district_code" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "store_id" text;--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_dept_id_departments_id_fk" FOREIGN KEY ("dept_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stores_ent_created_idx" ON "stores" USING btree ("ent_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "stores_ent_dept_idx" ON "stores" USING btree ("ent_id","dept_id");--> statement-breakpoint
CREATE INDEX "stores_ent_region_idx" ON "stores" USING btree ("ent_id","province_code","city_code","district_code");--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "devices_ent_region_idx" ON "devices" USING btree ("ent_id","province_code","city_code","district_code");--> statement-breakpoint
CREATE INDEX "devices_store_idx" ON "devices" USING btree ("store_id");