-- Issue 8: a station letter is a kind and its parameters, rendered in the reader's language
-- by the kind's rule; no letter is free text. The letters written so far were seeded texts
-- about storage and devices that do not exist: they go.
DELETE FROM "station_letters";--> statement-breakpoint
ALTER TABLE "station_letters" DROP COLUMN "content";--> statement-breakpoint
ALTER TABLE "station_letters" ADD COLUMN "kind" text NOT NULL;--> statement-breakpoint
ALTER TABLE "station_letters" ADD COLUMN "params" jsonb DEFAULT '{}'::jsonb NOT NULL;
