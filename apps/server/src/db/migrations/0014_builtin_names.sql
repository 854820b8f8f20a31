ALTER TABLE "roles" ADD COLUMN "builtin_key" text;--> statement-breakpoint
-- Roles the system made before the column existed, still under the English name it gave them.
UPDATE "roles" SET "builtin_key" = 'enterprise_admin' WHERE "builtin" AND "type" = 'admin' AND "name" = 'Enterprise administrator';--> statement-breakpoint
UPDATE "roles" SET "builtin_key" = 'platform_operator' WHERE "builtin" AND "type" = 'admin' AND "name" = 'Platform operator';--> statement-breakpoint
UPDATE "roles" SET "builtin_key" = 'advertiser' WHERE "type" = 'advertiser' AND "name" = 'Advertiser';
