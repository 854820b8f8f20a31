-- Custom SQL migration file, put your code below! --
CREATE OR REPLACE FUNCTION "templates_count_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR TG_OP = 'UPDATE' THEN
    UPDATE "template_dept_counts" SET "n" = "n" - 1
      WHERE "ent_id" = OLD."ent_id" AND "dept_id" = coalesce(OLD."dept_id", '');
  END IF;
  IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN
    INSERT INTO "template_dept_counts" ("ent_id", "dept_id", "n") VALUES (NEW."ent_id", coalesce(NEW."dept_id", ''), 1)
      ON CONFLICT ("ent_id", "dept_id") DO UPDATE SET "n" = "template_dept_counts"."n" + 1;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "templates_count" AFTER INSERT OR DELETE OR UPDATE OF "ent_id", "dept_id" ON "templates"
  FOR EACH ROW EXECUTE FUNCTION "templates_count_trigger"();
--> statement-breakpoint
INSERT INTO "template_dept_counts" ("ent_id", "dept_id", "n")
  SELECT "ent_id", coalesce("dept_id", ''), count(*) FROM "templates" GROUP BY 1, 2
  ON CONFLICT ("ent_id", "dept_id") DO UPDATE SET "n" = excluded."n";
