CREATE TABLE "device_presence" (
	"device_id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"deadline" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_presence" ADD CONSTRAINT "device_presence_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_presence_deadline_idx" ON "device_presence" USING btree ("deadline");--> statement-breakpoint
-- One row per stored online device: its deadline is effectiveStatus's rule (MISSED_HEARTBEATS_OFFLINE = 3
-- heartbeats after the later of last_seen_at and status_at). Removed when the device leaves 'online'.
CREATE OR REPLACE FUNCTION "devices_presence_follow_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  due timestamptz;
BEGIN
  IF NEW."status" = 'online' THEN
    due := greatest(coalesce(NEW."last_seen_at", NEW."status_at"), NEW."status_at")
      + make_interval(secs => NEW."heartbeat_sec" * 3);
    INSERT INTO "device_presence" ("device_id", "ent_id", "deadline") VALUES (NEW."id", NEW."ent_id", due)
      ON CONFLICT ("device_id") DO UPDATE SET "ent_id" = EXCLUDED."ent_id", "deadline" = EXCLUDED."deadline"
      WHERE "device_presence"."deadline" IS DISTINCT FROM EXCLUDED."deadline"
        OR "device_presence"."ent_id" IS DISTINCT FROM EXCLUDED."ent_id";
  ELSIF TG_OP = 'UPDATE' THEN
    DELETE FROM "device_presence" WHERE "device_id" = NEW."id";
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "devices_presence_follow" AFTER INSERT OR UPDATE OF "status", "last_seen_at", "status_at", "heartbeat_sec", "ent_id" ON "devices"
  FOR EACH ROW WHEN (NEW."status" = 'online') EXECUTE FUNCTION "devices_presence_follow_trigger"();
--> statement-breakpoint
CREATE TRIGGER "devices_presence_leave" AFTER UPDATE OF "status" ON "devices"
  FOR EACH ROW WHEN (OLD."status" = 'online' AND NEW."status" <> 'online') EXECUTE FUNCTION "devices_presence_follow_trigger"();
--> statement-breakpoint
INSERT INTO "device_presence" ("device_id", "ent_id", "deadline")
  SELECT "id", "ent_id", greatest(coalesce("last_seen_at", "status_at"), "status_at") + make_interval(secs => "heartbeat_sec" * 3)
  FROM "devices" WHERE "status" = 'online';
--> statement-breakpoint
-- The list and the offline job read the few rows past their deadline: plan them with the backfilled rows counted.
ANALYZE "device_presence";
