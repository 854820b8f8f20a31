ALTER TABLE "devices" ADD COLUMN "layout_id" text;--> statement-breakpoint
-- Proof of play (branch player): one row per playback a device reported, partitioned by the UTC
-- day it started; idempotent by (day, event_id). Kept out of the drizzle schema (drizzle has no
-- partitioned tables): modules/content/plays.ts reads and writes it with SQL. Partitions are
-- created ahead by the plays-partitions job and on demand by an upload.
CREATE TABLE "plays" (
	"day" date NOT NULL,
	"event_id" uuid NOT NULL,
	"ent_id" text NOT NULL,
	"device_id" text NOT NULL,
	"material_id" text,
	"layout_id" text,
	"component_id" text,
	"ad_id" text,
	"started_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"outcome" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plays_pkey" PRIMARY KEY ("day", "event_id"),
	CONSTRAINT "plays_outcome_check" CHECK ("outcome" in ('completed', 'interrupted'))
) PARTITION BY RANGE ("day");
--> statement-breakpoint
CREATE INDEX "plays_ent_day_idx" ON "plays" ("ent_id", "day");
--> statement-breakpoint
CREATE INDEX "plays_device_day_idx" ON "plays" ("device_id", "day");
