ALTER TABLE "operation_logs" ADD COLUMN "target_name" text;--> statement-breakpoint
-- Entries written before the column existed: name their targets from what exists now.
UPDATE "operation_logs" l SET "target_name" = a."login_name" FROM "accounts" a WHERE l."target_type" = 'account' AND a."id" = l."target_id" AND l."target_name" IS NULL;--> statement-breakpoint
UPDATE "operation_logs" l SET "target_name" = d."name" FROM "departments" d WHERE l."target_type" = 'department' AND d."id" = l."target_id" AND l."target_name" IS NULL;--> statement-breakpoint
UPDATE "operation_logs" l SET "target_name" = r."name" FROM "roles" r WHERE l."target_type" = 'role' AND r."id" = l."target_id" AND l."target_name" IS NULL;--> statement-breakpoint
UPDATE "operation_logs" l SET "target_name" = e."name" FROM "enterprises" e WHERE l."target_type" = 'enterprise' AND e."id" = l."target_id" AND l."target_name" IS NULL;--> statement-breakpoint
UPDATE "operation_logs" l SET "target_name" = s."login_name" FROM "sessions" x JOIN "accounts" s ON s."id" = x."account_id" WHERE l."target_type" = 'session' AND x."id" = l."target_id" AND l."target_name" IS NULL;
