ALTER TABLE "devices" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "time_zone" text DEFAULT 'Asia/Shanghai' NOT NULL;