CREATE TABLE "device_dept_counts" (
	"ent_id" text NOT NULL,
	"dept_id" text NOT NULL,
	"status" text NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "device_dept_counts_ent_id_dept_id_status_pk" PRIMARY KEY("ent_id","dept_id","status")
);
--> statement-breakpoint
DROP INDEX "devices_ent_dept_idx";--> statement-breakpoint
CREATE INDEX "devices_ent_dept_status_created_idx" ON "devices" USING btree ("ent_id","dept_id","status","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION "devices_count_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR TG_OP = 'UPDATE' THEN
    UPDATE "device_dept_counts" SET "n" = "n" - 1
      WHERE "ent_id" = OLD."ent_id" AND "dept_id" = coalesce(OLD."dept_id", '') AND "status" = OLD."status";
  END IF;
  IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN
    INSERT INTO "device_dept_counts" ("ent_id", "dept_id", "status", "n")
      VALUES (NEW."ent_id", coalesce(NEW."dept_id", ''), NEW."status", 1)
      ON CONFLICT ("ent_id", "dept_id", "status") DO UPDATE SET "n" = "device_dept_counts"."n" + 1;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "devices_count" AFTER INSERT OR DELETE ON "devices"
  FOR EACH ROW EXECUTE FUNCTION "devices_count_trigger"();
--> statement-breakpoint
CREATE TRIGGER "devices_count_move" AFTER UPDATE OF "ent_id", "dept_id", "status" ON "devices"
  FOR EACH ROW WHEN (OLD."ent_id" IS DISTINCT FROM NEW."ent_id" OR OLD."dept_id" IS DISTINCT FROM NEW."dept_id"
    OR OLD."status" IS DISTINCT FROM NEW."status")
  EXECUTE FUNCTION "devices_count_trigger"();
--> statement-breakpoint
INSERT INTO "device_dept_counts" ("ent_id", "dept_id", "status", "n")
  SELECT "ent_id", coalesce("dept_id", ''), "status", count(*) FROM "devices" GROUP BY 1, 2, 3
  ON CONFLICT ("ent_id", "dept_id", "status") DO UPDATE SET "n" = excluded."n";
