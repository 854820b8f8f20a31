ALTER TABLE "device_groups" ADD COLUMN "watermark" jsonb;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "watermark" jsonb;