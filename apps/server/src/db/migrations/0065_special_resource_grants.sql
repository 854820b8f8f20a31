-- Special resources (issue 31): the built-in platform operator roles manage special resources and
-- answer inquiries (a new provider-only code), and built-in advertiser roles read the page and
-- inquire (new installations get both from the seed, existing ones here).
UPDATE "roles" SET "permission_codes" = (
  SELECT array_agg(DISTINCT c) FROM unnest("permission_codes" || ARRAY['yxf_new_special_resource', 'yxf_new_special_resource_manage']) AS c
) WHERE "builtin_key" = 'platform_operator';
--> statement-breakpoint
UPDATE "roles" SET "permission_codes" = (
  SELECT array_agg(DISTINCT c) FROM unnest("permission_codes" || ARRAY['yxf_new_special_resource']) AS c
) WHERE "builtin_key" = 'advertiser';
