-- The deferred per-row bump of 0048 remembered only the last enterprise it bumped in the
-- statement, so the rows of enterprises interleaved in one transaction (a bulk insert over many
-- enterprises, as bench/warnings.ts makes 1,000,000 devices over 100) bumped on every row: one
-- upsert per row on the same few rows of sales_screen_generations, each walking the dead
-- versions the earlier ones left in the transaction (quadratic: over an hour for a million).
-- It now remembers each enterprise in its own setting: once per enterprise and statement.
CREATE OR REPLACE FUNCTION "sales_screen_generation_bump"(e text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  setting text;
  mark text := statement_timestamp()::text;
BEGIN
  IF e IS NULL THEN
    RETURN;
  END IF;
  setting := 'marquee.screen_gen_' || md5(e);
  IF current_setting(setting, true) IS NOT DISTINCT FROM mark THEN
    RETURN;
  END IF;
  PERFORM set_config(setting, mark, true);
  INSERT INTO "sales_screen_generations" ("ent_id", "gen") VALUES (e, nextval('sales_screen_generation_seq'))
    ON CONFLICT ("ent_id") DO UPDATE SET "gen" = EXCLUDED."gen";
END
$$;
