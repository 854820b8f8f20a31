-- Hand DDL (read and written with SQL only, like plays; outside the drizzle schema): the
-- per-ad, per-device rollups report.adDevices reads (issue 25: a campaign's device table over
-- 100 days x 10,000 screens summed 1,000,000 daily rows per call). Kept by the play-rollups job
-- (modules/content/rollups.ts recomputeAdDevices) with the other rollups.
--
-- play_rollups_ad_device_daily: an ad's plays on a device on a UTC day (its materials summed),
-- and the running totals of that ad on that device up to and including the day (cum_*): the
-- plays of a range are the running total at its last day minus the one before its first day,
-- whatever the range's length.
CREATE TABLE "play_rollups_ad_device_daily" (
	"ent_id" text NOT NULL,
	"ad_id" text NOT NULL,
	"device_id" text NOT NULL,
	"day" date NOT NULL,
	"plays" integer NOT NULL,
	"completed" integer NOT NULL,
	"duration_ms" bigint NOT NULL,
	"cum_plays" bigint NOT NULL,
	"cum_completed" bigint NOT NULL,
	"cum_duration_ms" bigint NOT NULL,
	CONSTRAINT "play_rollups_ad_device_daily_pk" PRIMARY KEY ("ent_id", "ad_id", "device_id", "day")
);--> statement-breakpoint
-- A range's boundary day of an ad, all its devices' running totals in one index range (a
-- device without a row that day is probed by the primary key for its last day before).
CREATE INDEX "play_rollups_ad_device_daily_ad_day_idx" ON "play_rollups_ad_device_daily" ("ent_id", "ad_id", "day")
  INCLUDE ("device_id", "cum_plays", "cum_duration_ms");--> statement-breakpoint
-- The job recomputes the rows of the (day, device) pairs new plays touched.
CREATE INDEX "play_rollups_ad_device_daily_day_device_idx" ON "play_rollups_ad_device_daily" ("day", "device_id");--> statement-breakpoint
-- play_rollups_ad_device: per ad and device, the first and last day it played there and its
-- totals (the running totals of the last day): the devices of an ad, and the whole figures of
-- a range that covers them.
CREATE TABLE "play_rollups_ad_device" (
	"ent_id" text NOT NULL,
	"ad_id" text NOT NULL,
	"device_id" text NOT NULL,
	"first_day" date NOT NULL,
	"last_day" date NOT NULL,
	"plays" bigint NOT NULL,
	"completed" bigint NOT NULL,
	"duration_ms" bigint NOT NULL,
	CONSTRAINT "play_rollups_ad_device_pk" PRIMARY KEY ("ent_id", "ad_id", "device_id")
);--> statement-breakpoint
-- The plays already rolled up (later runs of the job keep them).
INSERT INTO "play_rollups_ad_device_daily"
  ("ent_id", "ad_id", "device_id", "day", "plays", "completed", "duration_ms", "cum_plays", "cum_completed", "cum_duration_ms")
SELECT "ent_id", "ad_id", "device_id", "day", "plays", "completed", "duration_ms",
  sum("plays") OVER w, sum("completed") OVER w, sum("duration_ms") OVER w
FROM (SELECT "ent_id", "ad_id", "device_id", "day", sum("plays")::int AS "plays", sum("completed")::int AS "completed",
        sum("duration_ms")::bigint AS "duration_ms"
      FROM "play_rollups_daily" WHERE "ad_id" <> ''
      GROUP BY "ent_id", "ad_id", "device_id", "day") d
WINDOW w AS (PARTITION BY "ent_id", "ad_id", "device_id" ORDER BY "day");--> statement-breakpoint
INSERT INTO "play_rollups_ad_device" ("ent_id", "ad_id", "device_id", "first_day", "last_day", "plays", "completed", "duration_ms")
SELECT "ent_id", "ad_id", "device_id", min("day"), max("day"), sum("plays"), sum("completed"), sum("duration_ms")
FROM "play_rollups_ad_device_daily"
GROUP BY "ent_id", "ad_id", "device_id";--> statement-breakpoint
ANALYZE "play_rollups_ad_device_daily";--> statement-breakpoint
ANALYZE "play_rollups_ad_device";
