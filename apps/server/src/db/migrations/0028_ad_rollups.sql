CREATE TABLE "play_rollups_daily" (
	"day" date NOT NULL,
	"ent_id" text NOT NULL,
	"device_id" text NOT NULL,
	"ad_id" text NOT NULL,
	"material_id" text NOT NULL,
	"plays" integer NOT NULL,
	"completed" integer NOT NULL,
	"duration_ms" bigint NOT NULL,
	CONSTRAINT "play_rollups_daily_day_device_id_ad_id_material_id_pk" PRIMARY KEY("day","device_id","ad_id","material_id")
);
--> statement-breakpoint
CREATE TABLE "play_rollups_hourly" (
	"day" date NOT NULL,
	"hour" smallint NOT NULL,
	"ent_id" text NOT NULL,
	"device_id" text NOT NULL,
	"ad_id" text NOT NULL,
	"material_id" text NOT NULL,
	"plays" integer NOT NULL,
	"completed" integer NOT NULL,
	"duration_ms" bigint NOT NULL,
	CONSTRAINT "play_rollups_hourly_day_device_id_hour_ad_id_material_id_pk" PRIMARY KEY("day","device_id","hour","ad_id","material_id"),
	CONSTRAINT "play_rollups_hourly_hour_check" CHECK ("play_rollups_hourly"."hour" between 0 and 23)
);
--> statement-breakpoint
CREATE TABLE "rollup_watermarks" (
	"name" text PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "play_rollups_daily_ent_ad_day_idx" ON "play_rollups_daily" USING btree ("ent_id","ad_id","day");--> statement-breakpoint
CREATE INDEX "play_rollups_daily_ent_day_idx" ON "play_rollups_daily" USING btree ("ent_id","day");--> statement-breakpoint
CREATE INDEX "play_rollups_hourly_ent_ad_day_idx" ON "play_rollups_hourly" USING btree ("ent_id","ad_id","day");--> statement-breakpoint
-- Hand DDL (plays is outside the drizzle schema, see 0026): the play-rollups job reads the plays
-- received since its watermark; the index on the partitioned table reaches every partition.
CREATE INDEX "plays_received_idx" ON "plays" ("received_at");
