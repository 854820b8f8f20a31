CREATE TABLE "play_rollups_ad_daily" (
	"ent_id" text NOT NULL,
	"ad_id" text NOT NULL,
	"day" date NOT NULL,
	"plays" integer NOT NULL,
	"completed" integer NOT NULL,
	"duration_ms" bigint NOT NULL,
	"devices" integer NOT NULL,
	"hour_plays" integer[] NOT NULL,
	CONSTRAINT "play_rollups_ad_daily_ent_id_ad_id_day_pk" PRIMARY KEY("ent_id","ad_id","day")
);
--> statement-breakpoint
-- The ad-daily rollups of the plays already rolled up (later runs of the play-rollups job keep
-- them): the query of modules/content/rollups.ts recomputeAdDaily, over every (ent, ad, day).
INSERT INTO "play_rollups_ad_daily" ("ent_id", "ad_id", "day", "plays", "completed", "duration_ms", "devices", "hour_plays")
SELECT d."ent_id", d."ad_id", d."day", d."plays", d."completed", d."duration_ms", d."devices",
  (SELECT array_agg(coalesce(h."plays", 0)::int ORDER BY g."hour")
   FROM generate_series(0, 23) g("hour")
   LEFT JOIN (SELECT "hour", sum("plays") AS "plays" FROM "play_rollups_hourly" r
              WHERE r."ent_id" = d."ent_id" AND r."ad_id" = d."ad_id" AND r."day" = d."day" GROUP BY "hour") h
     ON h."hour" = g."hour")
FROM (SELECT "ent_id", "ad_id", "day", sum("plays") AS "plays", sum("completed") AS "completed",
        sum("duration_ms") AS "duration_ms", count(DISTINCT "device_id") AS "devices"
      FROM "play_rollups_daily" GROUP BY "ent_id", "ad_id", "day") d;
