ALTER TABLE "alarm_events" ADD COLUMN "notify_claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alarm_events" ADD COLUMN "notified_at" timestamp with time zone;--> statement-breakpoint
-- Events stored before this migration were notified in their device's call: none is sent again.
UPDATE "alarm_events" SET "notified_at" = "received_at", "notify_claimed_at" = "received_at";--> statement-breakpoint
CREATE INDEX "alarm_events_unnotified_idx" ON "alarm_events" USING btree ("received_at") WHERE "alarm_events"."notified_at" is null;