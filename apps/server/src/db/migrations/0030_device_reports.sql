CREATE TABLE "content_pushes" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"reason" text NOT NULL,
	"ad_id" text,
	"account_id" text,
	"device_count" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_pushes_reason_check" CHECK ("content_pushes"."reason" in ('adApproved', 'adChanged', 'adPaused', 'adEnabled', 'adDeleted', 'broadcast', 'repush', 'layout', 'playlistSort'))
);
--> statement-breakpoint
CREATE TABLE "device_playlist_orders" (
	"device_id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"ad_ids" jsonb NOT NULL,
	"account_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_commands" ADD COLUMN "push_id" text;--> statement-breakpoint
ALTER TABLE "device_playlist_orders" ADD CONSTRAINT "device_playlist_orders_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "content_pushes_ent_created_idx" ON "content_pushes" USING btree ("ent_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "content_pushes_ent_ad_idx" ON "content_pushes" USING btree ("ent_id","ad_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "device_commands_push_idx" ON "device_commands" USING btree ("push_id") WHERE "device_commands"."push_id" is not null;