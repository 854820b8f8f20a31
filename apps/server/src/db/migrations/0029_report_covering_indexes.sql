-- Hand DDL (drizzle's index builder has no INCLUDE): the ad reports (modules/reports) read one
-- ad's rollups over a range of days; with the counted columns in the index the scans are
-- index-only (a campaign of 10,000 screens x 100 days is 1,000,000 daily rows). Same names as
-- the indexes of 0028, so the drizzle schema and its snapshots stay as they are.
DROP INDEX IF EXISTS "play_rollups_daily_ent_ad_day_idx";--> statement-breakpoint
CREATE INDEX "play_rollups_daily_ent_ad_day_idx" ON "play_rollups_daily" USING btree ("ent_id","ad_id","day")
  INCLUDE ("device_id","material_id","plays","completed","duration_ms");--> statement-breakpoint
DROP INDEX IF EXISTS "play_rollups_hourly_ent_ad_day_idx";--> statement-breakpoint
CREATE INDEX "play_rollups_hourly_ent_ad_day_idx" ON "play_rollups_hourly" USING btree ("ent_id","ad_id","day")
  INCLUDE ("hour","plays");
