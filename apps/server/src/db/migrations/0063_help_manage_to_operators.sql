-- Help documents (issue 31): the built-in platform operator roles write the help documents (a
-- new provider-only code; new installations get it from the seed, existing ones here).
UPDATE "roles" SET "permission_codes" = (
  SELECT array_agg(DISTINCT c) FROM unnest("permission_codes" || ARRAY['yxf_new_help_manage']) AS c
) WHERE "builtin_key" = 'platform_operator';
