-- Hand DDL (read and written with SQL only; outside the drizzle schema, like
-- play_rollups_ad_device_daily): a generation per enterprise of what decides which screens a
-- slot reaches (issue 28: the availability of a slot over 10,000 screens resolved the slot's
-- targets and read every screen's row on every call). modules/sales/screenCache.ts keeps each
-- slot's resolved screens (ids and names, never their presence) with the generation it read;
-- every call reads the generation again (one row) and resolves the screens afresh when it moved.
--
-- Kept by triggers, whatever code path (or bare SQL) makes the change: a device inserted or
-- deleted, or its enterprise, group, department, activation or name changed; a tag put on or
-- taken off a device; a tile of a split screen added, removed or moved (cascades from a group,
-- tag, wall or device deleted included). Heartbeats and presence (last_seen_at, status,
-- status_at) never touch it.
--
-- The bump is deferred to the commit (constraint triggers, initially deferred): the enterprise's
-- row is locked only while the transaction commits, after every other lock it takes, so it
-- neither serializes the transactions that change devices nor orders their locks (no deadlock
-- with the device counters, device_dept_counts). A bump takes a new value of a sequence, so a
-- generation names one committed state. Until its commit, a transaction that changed screens is
-- marked (transaction-local setting marquee.screen_changed, set at once by plain triggers that
-- write nothing): slotScreens then resolves afresh and keeps nothing.
CREATE SEQUENCE "sales_screen_generation_seq";--> statement-breakpoint
CREATE TABLE "sales_screen_generations" (
	"ent_id" text PRIMARY KEY NOT NULL,
	"gen" bigint NOT NULL
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "sales_screen_changed_mark"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('marquee.screen_changed', 'on', true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "sales_screen_generation_bump"(e text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  -- Once per enterprise and statement that fires the deferred triggers (the commit, or a SET
  -- CONSTRAINTS): a transaction that inserted 10,000 devices bumps once.
  mark text := statement_timestamp()::text || ' ' || e;
BEGIN
  IF e IS NULL OR current_setting('marquee.screen_gen_bumped', true) IS NOT DISTINCT FROM mark THEN
    RETURN;
  END IF;
  PERFORM set_config('marquee.screen_gen_bumped', mark, true);
  INSERT INTO "sales_screen_generations" ("ent_id", "gen") VALUES (e, nextval('sales_screen_generation_seq'))
    ON CONFLICT ("ent_id") DO UPDATE SET "gen" = EXCLUDED."gen";
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "sales_screen_generation_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "sales_screen_generation_bump"(NEW."ent_id");
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "sales_screen_generation_bump"(OLD."ent_id");
  ELSE
    -- Both enterprises when the row moved, in key order.
    IF OLD."ent_id" IS DISTINCT FROM NEW."ent_id" AND OLD."ent_id" > NEW."ent_id" THEN
      PERFORM "sales_screen_generation_bump"(NEW."ent_id");
      PERFORM "sales_screen_generation_bump"(OLD."ent_id");
    ELSE
      PERFORM "sales_screen_generation_bump"(OLD."ent_id");
      IF OLD."ent_id" IS DISTINCT FROM NEW."ent_id" THEN
        PERFORM "sales_screen_generation_bump"(NEW."ent_id");
      END IF;
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "devices_screen_changed" AFTER INSERT OR DELETE OR UPDATE OF "ent_id", "group_id", "dept_id", "activated_at", "name"
  ON "devices" FOR EACH STATEMENT EXECUTE FUNCTION "sales_screen_changed_mark"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "devices_screen_gen" AFTER INSERT OR DELETE ON "devices"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "sales_screen_generation_trigger"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "devices_screen_gen_update" AFTER UPDATE OF "ent_id", "group_id", "dept_id", "activated_at", "name"
  ON "devices" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."ent_id" IS DISTINCT FROM NEW."ent_id" OR OLD."group_id" IS DISTINCT FROM NEW."group_id"
    OR OLD."dept_id" IS DISTINCT FROM NEW."dept_id" OR OLD."activated_at" IS DISTINCT FROM NEW."activated_at"
    OR OLD."name" IS DISTINCT FROM NEW."name")
  EXECUTE FUNCTION "sales_screen_generation_trigger"();
--> statement-breakpoint
CREATE TRIGGER "device_tags_screen_changed" AFTER INSERT OR DELETE OR UPDATE OF "ent_id", "device_id", "tag_id"
  ON "device_tags" FOR EACH STATEMENT EXECUTE FUNCTION "sales_screen_changed_mark"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "device_tags_screen_gen" AFTER INSERT OR DELETE ON "device_tags"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "sales_screen_generation_trigger"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "device_tags_screen_gen_update" AFTER UPDATE OF "ent_id", "device_id", "tag_id"
  ON "device_tags" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."ent_id" IS DISTINCT FROM NEW."ent_id" OR OLD."device_id" IS DISTINCT FROM NEW."device_id"
    OR OLD."tag_id" IS DISTINCT FROM NEW."tag_id")
  EXECUTE FUNCTION "sales_screen_generation_trigger"();
--> statement-breakpoint
CREATE TRIGGER "splice_tiles_screen_changed" AFTER INSERT OR DELETE OR UPDATE OF "ent_id", "device_id", "wall_id"
  ON "splice_tiles" FOR EACH STATEMENT EXECUTE FUNCTION "sales_screen_changed_mark"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "splice_tiles_screen_gen" AFTER INSERT OR DELETE ON "splice_tiles"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "sales_screen_generation_trigger"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "splice_tiles_screen_gen_update" AFTER UPDATE OF "ent_id", "device_id", "wall_id"
  ON "splice_tiles" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."ent_id" IS DISTINCT FROM NEW."ent_id" OR OLD."device_id" IS DISTINCT FROM NEW."device_id"
    OR OLD."wall_id" IS DISTINCT FROM NEW."wall_id")
  EXECUTE FUNCTION "sales_screen_generation_trigger"();
