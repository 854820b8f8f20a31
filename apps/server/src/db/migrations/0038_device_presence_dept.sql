ALTER TABLE "device_presence" ADD COLUMN "dept_id" text;--> statement-breakpoint
-- The presence row carries the device's department, so a department scope's offline filter reads only its
-- own devices past their deadline (migration 0037's rule otherwise unchanged); it follows a device that moves.
CREATE OR REPLACE FUNCTION "devices_presence_follow_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  due timestamptz;
BEGIN
  IF NEW."status" = 'online' THEN
    due := greatest(coalesce(NEW."last_seen_at", NEW."status_at"), NEW."status_at")
      + make_interval(secs => NEW."heartbeat_sec" * 3);
    INSERT INTO "device_presence" ("device_id", "ent_id", "dept_id", "deadline")
      VALUES (NEW."id", NEW."ent_id", NEW."dept_id", due)
      ON CONFLICT ("device_id") DO UPDATE
        SET "ent_id" = EXCLUDED."ent_id", "dept_id" = EXCLUDED."dept_id", "deadline" = EXCLUDED."deadline"
      WHERE "device_presence"."deadline" IS DISTINCT FROM EXCLUDED."deadline"
        OR "device_presence"."ent_id" IS DISTINCT FROM EXCLUDED."ent_id"
        OR "device_presence"."dept_id" IS DISTINCT FROM EXCLUDED."dept_id";
  ELSIF TG_OP = 'UPDATE' THEN
    DELETE FROM "device_presence" WHERE "device_id" = NEW."id";
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER "devices_presence_follow" ON "devices";--> statement-breakpoint
CREATE TRIGGER "devices_presence_follow" AFTER INSERT OR UPDATE OF "status", "last_seen_at", "status_at", "heartbeat_sec", "ent_id", "dept_id" ON "devices"
  FOR EACH ROW WHEN (NEW."status" = 'online') EXECUTE FUNCTION "devices_presence_follow_trigger"();
--> statement-breakpoint
UPDATE "device_presence" p SET "dept_id" = d."dept_id" FROM "devices" d WHERE d."id" = p."device_id" AND d."dept_id" IS NOT NULL;
--> statement-breakpoint
ANALYZE "device_presence";
