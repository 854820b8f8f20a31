CREATE TABLE "qrcode_scans" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"device_id" text NOT NULL,
	"ad_id" text DEFAULT '' NOT NULL,
	"layout_id" text NOT NULL,
	"component_id" text NOT NULL,
	"scanned_at" timestamp with time zone NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"language" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX "qrcode_scans_ent_time_idx" ON "qrcode_scans" USING btree ("ent_id","scanned_at");--> statement-breakpoint
CREATE INDEX "qrcode_scans_device_time_idx" ON "qrcode_scans" USING btree ("device_id","scanned_at");