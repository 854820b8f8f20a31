CREATE TABLE "play_rollups_ad_daily" (
	"ent_id" text NOT NULL,
	"ad_id" text NOT NULL,
	"day" date NOT NULL,
	"plays" integer NOT NULL,
	"completed" integer NOT NULL,
	"duration_ms" bigint NOT NULL,
	"devices" integer NOT NULL,
	CONSTRAINT "play_rollups_ad_daily_ent_id_ad_id_day_pk" PRIMARY KEY("ent_id","ad_id","day")
);
--> statement-breakpoint
-- The ad-daily rollups of the plays already rolled up (later runs of the play-rollups job keep them).
INSERT INTO "play_rollups_ad_daily" ("ent_id", "ad_id", "day", "plays", "completed", "duration_ms", "devices")
SELECT "ent_id", "ad_id", "day", sum("plays"), sum("completed"), sum("duration_ms"), count(DISTINCT "device_id")
FROM "play_rollups_daily" GROUP BY "ent_id", "ad_id", "day";
