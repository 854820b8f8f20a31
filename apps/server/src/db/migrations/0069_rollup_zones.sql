-- Issue 31: the play rollups are keyed by the local day and hour of the enterprise whose screens
-- played (enterprises.rollup_zone), no longer by UTC. Existing rollups were computed in UTC; the
-- `rollups-rezone` job rebuilds each enterprise's retained days in its time_zone and records since
-- when (rollup_zone_since) its days are that zone's.
ALTER TABLE "enterprises" ADD COLUMN "rollup_zone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "rollup_zone_since" date;
