ALTER TABLE "templates" ADD COLUMN "name_lower" text GENERATED ALWAYS AS (lower("name")) STORED NOT NULL;
--> statement-breakpoint
-- The name filter's `%term%` needs a trigram index. pg_trgm is a contrib extension: trusted
-- (a database owner may create it) and loaded by the server's PGlite, but a PostgreSQL server
-- without contrib, or a role that may not create extensions, must still migrate; there the
-- filter stays correct and scans the caller's scoped rows instead. The index is therefore not
-- in the drizzle schema. Installing pg_trgm later and running this block again adds it.
-- fastupdate off: templates change rarely, and a search then never reads a pending list (which
-- PGlite, without autovacuum, would only flush once it reached 4 MB).
DO $$
DECLARE
  trgm_schema name;
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'pg_trgm unavailable (%), templates.name_lower gets no trigram index', SQLERRM;
  END;
  SELECT n.nspname INTO trgm_schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'pg_trgm';
  IF trgm_schema IS NOT NULL THEN
    EXECUTE format(
      'CREATE INDEX IF NOT EXISTS "templates_name_lower_trgm_idx" ON "templates" USING gin ("name_lower" %I.gin_trgm_ops) WITH (fastupdate = off)',
      trgm_schema);
  END IF;
END
$$;
