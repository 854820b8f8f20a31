DROP INDEX "devices_ent_status_idx";--> statement-breakpoint
CREATE INDEX "devices_ent_owner_created_idx" ON "devices" USING btree ("ent_id","owner_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "devices_ent_status_created_idx" ON "devices" USING btree ("ent_id","status","created_at" DESC NULLS LAST,"id");