CREATE TABLE "device_audience_hourly" (
	"device_id" text NOT NULL,
	"ent_id" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"band" text NOT NULL,
	"gender" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "device_audience_hourly_device_id_hour_band_gender_pk" PRIMARY KEY("device_id","hour","band","gender"),
	CONSTRAINT "device_audience_gender_check" CHECK ("device_audience_hourly"."gender" in ('male', 'female', 'unknown'))
);
--> statement-breakpoint
CREATE TABLE "splice_tiles" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"wall_id" text NOT NULL,
	"row" integer NOT NULL,
	"col" integer NOT NULL,
	"device_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "splice_walls" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"dept_id" text,
	"owner_id" text,
	"name" text NOT NULL,
	"rows" integer NOT NULL,
	"cols" integer NOT NULL,
	"scaling" boolean DEFAULT false NOT NULL,
	"rotation" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "splice_walls_grid_check" CHECK ("splice_walls"."rows" between 1 and 8 and "splice_walls"."cols" between 1 and 8),
	CONSTRAINT "splice_walls_rotation_check" CHECK ("splice_walls"."rotation" in (0, 90, 180, 270)),
	CONSTRAINT "splice_walls_rotation_scaling_check" CHECK ("splice_walls"."rotation" = 0 or "splice_walls"."scaling")
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "uptime_sec" integer;--> statement-breakpoint
ALTER TABLE "operation_log_exports" ADD COLUMN "kind" text DEFAULT 'operationLog' NOT NULL;--> statement-breakpoint
ALTER TABLE "device_audience_hourly" ADD CONSTRAINT "device_audience_hourly_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "splice_tiles" ADD CONSTRAINT "splice_tiles_wall_id_splice_walls_id_fk" FOREIGN KEY ("wall_id") REFERENCES "public"."splice_walls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "splice_tiles" ADD CONSTRAINT "splice_tiles_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "splice_walls" ADD CONSTRAINT "splice_walls_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "splice_walls" ADD CONSTRAINT "splice_walls_dept_id_departments_id_fk" FOREIGN KEY ("dept_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "splice_walls" ADD CONSTRAINT "splice_walls_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_audience_ent_hour_idx" ON "device_audience_hourly" USING btree ("ent_id","hour");--> statement-breakpoint
CREATE UNIQUE INDEX "splice_tiles_position_key" ON "splice_tiles" USING btree ("wall_id","row","col");--> statement-breakpoint
CREATE UNIQUE INDEX "splice_tiles_device_key" ON "splice_tiles" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "splice_walls_ent_created_idx" ON "splice_walls" USING btree ("ent_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "splice_walls_ent_dept_idx" ON "splice_walls" USING btree ("ent_id","dept_id");