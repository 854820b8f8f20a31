CREATE TABLE "device_downloads" (
	"device_id" text NOT NULL,
	"material_id" text NOT NULL,
	"ent_id" text NOT NULL,
	"state" text NOT NULL,
	"bytes_done" bigint NOT NULL,
	"bytes_total" bigint NOT NULL,
	"error" text,
	"changed_at" timestamp with time zone NOT NULL,
	"manifest_version" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_downloads_device_id_material_id_pk" PRIMARY KEY("device_id","material_id"),
	CONSTRAINT "device_downloads_state_check" CHECK ("device_downloads"."state" in ('not_downloaded', 'downloading', 'failed', 'successful'))
);
--> statement-breakpoint
CREATE TABLE "device_manifest_downloads" (
	"device_id" text NOT NULL,
	"manifest_version" text NOT NULL,
	"ent_id" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "device_manifest_downloads_device_id_manifest_version_pk" PRIMARY KEY("device_id","manifest_version")
);
--> statement-breakpoint
ALTER TABLE "device_downloads" ADD CONSTRAINT "device_downloads_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_downloads" ADD CONSTRAINT "device_downloads_material_id_materials_id_fk" FOREIGN KEY ("material_id") REFERENCES "public"."materials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_manifest_downloads" ADD CONSTRAINT "device_manifest_downloads_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_downloads_material_idx" ON "device_downloads" USING btree ("material_id");--> statement-breakpoint
CREATE INDEX "device_manifest_downloads_completed_idx" ON "device_manifest_downloads" USING btree ("device_id","completed_at");