-- Hand DDL (read and written with SQL only; outside the drizzle schema, like
-- play_rollups_ad_device_daily): a generation per enterprise of what decides which screens a
-- slot reaches (issue 28: the availability of a slot over 10,000 screens resolved the slot's
-- targets and read every screen's row on every call). modules/sales/screenCache.ts keeps each
-- slot's resolved screens (ids and names, never their presence) with the generation it read;
-- every call reads the generation again (one row) and resolves the screens afresh when it moved.
--
-- Kept by triggers, in the transactions that change it, whatever code path changes it: a device
-- inserted or deleted, or its enterprise, group, department, activation or name changed; a tag
-- put on or taken off a device; a tile of a split screen added, removed or moved (cascades from
-- a group, tag, wall or device deleted included). Heartbeats and presence (last_seen_at,
-- status, status_at) never touch it. Each bump takes a new value of a sequence, never reused
-- even when its transaction rolls back, so a generation names one committed state (or the
-- uncommitted state of the one transaction that wrote it).
CREATE SEQUENCE "sales_screen_generation_seq";--> statement-breakpoint
CREATE TABLE "sales_screen_generations" (
	"ent_id" text PRIMARY KEY NOT NULL,
	"gen" bigint NOT NULL
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "sales_screen_generation_bump_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Statement level: the enterprises of the inserted or deleted rows (transition table "changed"), in key order.
  INSERT INTO "sales_screen_generations" ("ent_id", "gen")
    SELECT e, nextval('sales_screen_generation_seq')
      FROM (SELECT DISTINCT "ent_id" AS e FROM "changed" WHERE "ent_id" IS NOT NULL ORDER BY 1) s
    ON CONFLICT ("ent_id") DO UPDATE SET "gen" = EXCLUDED."gen";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "sales_screen_generation_bump_row"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  mark text := statement_timestamp()::text || ' ' || coalesce(OLD."ent_id", '') || ' ' || coalesce(NEW."ent_id", '');
BEGIN
  -- Row level (an update of a column listed in the trigger): the row's enterprise, both when it
  -- moved; once per statement and enterprise (a transaction-local mark), so an update of 10,000
  -- devices bumps once rather than updating one row 10,000 times in its transaction (whose
  -- versions each next bump walks). Statements of one transaction start at distinct instants.
  IF current_setting('marquee.screen_gen_bumped', true) IS NOT DISTINCT FROM mark THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('marquee.screen_gen_bumped', mark, true);
  INSERT INTO "sales_screen_generations" ("ent_id", "gen")
    SELECT e, nextval('sales_screen_generation_seq')
      FROM (SELECT DISTINCT e FROM (VALUES (OLD."ent_id"), (NEW."ent_id")) v(e) WHERE e IS NOT NULL ORDER BY 1) s
    ON CONFLICT ("ent_id") DO UPDATE SET "gen" = EXCLUDED."gen";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "devices_screen_gen_insert" AFTER INSERT ON "devices"
  REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "sales_screen_generation_bump_rows"();
--> statement-breakpoint
CREATE TRIGGER "devices_screen_gen_delete" AFTER DELETE ON "devices"
  REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "sales_screen_generation_bump_rows"();
--> statement-breakpoint
CREATE TRIGGER "devices_screen_gen_update" AFTER UPDATE OF "ent_id", "group_id", "dept_id", "activated_at", "name" ON "devices"
  FOR EACH ROW WHEN (OLD."ent_id" IS DISTINCT FROM NEW."ent_id" OR OLD."group_id" IS DISTINCT FROM NEW."group_id"
    OR OLD."dept_id" IS DISTINCT FROM NEW."dept_id" OR OLD."activated_at" IS DISTINCT FROM NEW."activated_at"
    OR OLD."name" IS DISTINCT FROM NEW."name")
  EXECUTE FUNCTION "sales_screen_generation_bump_row"();
--> statement-breakpoint
CREATE TRIGGER "device_tags_screen_gen_insert" AFTER INSERT ON "device_tags"
  REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "sales_screen_generation_bump_rows"();
--> statement-breakpoint
CREATE TRIGGER "device_tags_screen_gen_delete" AFTER DELETE ON "device_tags"
  REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "sales_screen_generation_bump_rows"();
--> statement-breakpoint
CREATE TRIGGER "device_tags_screen_gen_update" AFTER UPDATE OF "ent_id", "device_id", "tag_id" ON "device_tags"
  FOR EACH ROW WHEN (OLD."ent_id" IS DISTINCT FROM NEW."ent_id" OR OLD."device_id" IS DISTINCT FROM NEW."device_id"
    OR OLD."tag_id" IS DISTINCT FROM NEW."tag_id")
  EXECUTE FUNCTION "sales_screen_generation_bump_row"();
--> statement-breakpoint
CREATE TRIGGER "splice_tiles_screen_gen_insert" AFTER INSERT ON "splice_tiles"
  REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "sales_screen_generation_bump_rows"();
--> statement-breakpoint
CREATE TRIGGER "splice_tiles_screen_gen_delete" AFTER DELETE ON "splice_tiles"
  REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "sales_screen_generation_bump_rows"();
--> statement-breakpoint
CREATE TRIGGER "splice_tiles_screen_gen_update" AFTER UPDATE OF "ent_id", "device_id", "wall_id" ON "splice_tiles"
  FOR EACH ROW WHEN (OLD."ent_id" IS DISTINCT FROM NEW."ent_id" OR OLD."device_id" IS DISTINCT FROM NEW."device_id"
    OR OLD."wall_id" IS DISTINCT FROM NEW."wall_id")
  EXECUTE FUNCTION "sales_screen_generation_bump_row"();
