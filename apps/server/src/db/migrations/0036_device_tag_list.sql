ALTER TABLE "device_tags" ADD COLUMN "dept_id" text;--> statement-breakpoint
ALTER TABLE "device_tags" ADD COLUMN "status" text;--> statement-breakpoint
ALTER TABLE "device_tags" ADD COLUMN "device_created_at" timestamp with time zone;--> statement-breakpoint
UPDATE "device_tags" SET "dept_id" = d."dept_id", "status" = d."status", "device_created_at" = d."created_at"
  FROM "devices" d WHERE d."id" = "device_tags"."device_id";--> statement-breakpoint
CREATE OR REPLACE FUNCTION "device_tags_fill_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT "dept_id", "status", "created_at" INTO NEW."dept_id", NEW."status", NEW."device_created_at"
    FROM "devices" WHERE "id" = NEW."device_id";
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "device_tags_fill" BEFORE INSERT OR UPDATE OF "device_id" ON "device_tags"
  FOR EACH ROW EXECUTE FUNCTION "device_tags_fill_trigger"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "devices_tags_follow_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "device_tags" SET "dept_id" = NEW."dept_id", "status" = NEW."status", "device_created_at" = NEW."created_at"
    WHERE "device_id" = NEW."id";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "devices_tags_follow" AFTER UPDATE OF "dept_id", "status", "created_at" ON "devices"
  FOR EACH ROW WHEN (OLD."dept_id" IS DISTINCT FROM NEW."dept_id" OR OLD."status" IS DISTINCT FROM NEW."status"
    OR OLD."created_at" IS DISTINCT FROM NEW."created_at")
  EXECUTE FUNCTION "devices_tags_follow_trigger"();
--> statement-breakpoint
CREATE INDEX "device_tags_tag_dept_created_idx" ON "device_tags" USING btree ("tag_id","dept_id","device_created_at" DESC NULLS LAST,"device_id");--> statement-breakpoint
CREATE INDEX "device_tags_tag_dept_status_created_idx" ON "device_tags" USING btree ("tag_id","dept_id","status","device_created_at" DESC NULLS LAST,"device_id");--> statement-breakpoint
CREATE INDEX "device_tags_ent_tag_created_idx" ON "device_tags" USING btree ("ent_id","tag_id","device_created_at" DESC NULLS LAST,"device_id");--> statement-breakpoint
CREATE INDEX "device_tags_ent_tag_status_created_idx" ON "device_tags" USING btree ("ent_id","tag_id","status","device_created_at" DESC NULLS LAST,"device_id");
