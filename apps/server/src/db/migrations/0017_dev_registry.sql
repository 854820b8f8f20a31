ALTER TABLE "devices" ADD COLUMN "type" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "screen_size" double precision;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "screen_count" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "installed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "expire_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "remark" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "devices_ent_type_idx" ON "devices" USING btree ("ent_id","type");--> statement-breakpoint
CREATE INDEX "devices_ent_expire_idx" ON "devices" USING btree ("ent_id","expire_at");--> statement-breakpoint
CREATE INDEX "devices_ent_version_idx" ON "devices" USING btree ("ent_id","player_version");--> statement-breakpoint
CREATE INDEX "devices_online_idx" ON "devices" USING btree ("heartbeat_sec") WHERE "devices"."status" = 'online';--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_type_check" CHECK ("devices"."type" in ('lcd', 'led', 'touch', 'outdoor', 'projector', 'other'));