-- A device moving between counter rows (a status change, another department) takes their
-- locks in one order, the rows' keys sorted, whichever way it moves: two devices of one
-- department going online and offline at the same moment no longer wait for each other's
-- second row (a deadlock, one of them aborted: a will lost until the device's missed heartbeats).
CREATE OR REPLACE FUNCTION "devices_count_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_first boolean := true;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    old_first := (OLD."ent_id", coalesce(OLD."dept_id", ''), OLD."status")
      < (NEW."ent_id", coalesce(NEW."dept_id", ''), NEW."status");
  END IF;
  IF (TG_OP = 'DELETE' OR TG_OP = 'UPDATE') AND old_first THEN
    UPDATE "device_dept_counts" SET "n" = "n" - 1
      WHERE "ent_id" = OLD."ent_id" AND "dept_id" = coalesce(OLD."dept_id", '') AND "status" = OLD."status";
  END IF;
  IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN
    INSERT INTO "device_dept_counts" ("ent_id", "dept_id", "status", "n")
      VALUES (NEW."ent_id", coalesce(NEW."dept_id", ''), NEW."status", 1)
      ON CONFLICT ("ent_id", "dept_id", "status") DO UPDATE SET "n" = "device_dept_counts"."n" + 1;
  END IF;
  IF TG_OP = 'UPDATE' AND NOT old_first THEN
    UPDATE "device_dept_counts" SET "n" = "n" - 1
      WHERE "ent_id" = OLD."ent_id" AND "dept_id" = coalesce(OLD."dept_id", '') AND "status" = OLD."status";
  END IF;
  RETURN NULL;
END
$$;
