CREATE TABLE "device_screenshots" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"device_id" text NOT NULL,
	"command_id" text,
	"file_key" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"trigger" text NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_screenshots_trigger_check" CHECK ("device_screenshots"."trigger" in ('manual', 'timed'))
);
--> statement-breakpoint
CREATE TABLE "screenshot_settings" (
	"ent_id" text PRIMARY KEY NOT NULL,
	"timed_enabled" boolean DEFAULT true NOT NULL,
	"interval_hours" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_screenshots" ADD CONSTRAINT "device_screenshots_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_screenshots" ADD CONSTRAINT "device_screenshots_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_screenshots" ADD CONSTRAINT "device_screenshots_command_id_device_commands_id_fk" FOREIGN KEY ("command_id") REFERENCES "public"."device_commands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screenshot_settings" ADD CONSTRAINT "screenshot_settings_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_screenshots_command_key" ON "device_screenshots" USING btree ("command_id");--> statement-breakpoint
CREATE INDEX "device_screenshots_device_taken_idx" ON "device_screenshots" USING btree ("device_id","taken_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "device_screenshots_ent_taken_idx" ON "device_screenshots" USING btree ("ent_id","taken_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "device_screenshots_taken_idx" ON "device_screenshots" USING btree ("taken_at");