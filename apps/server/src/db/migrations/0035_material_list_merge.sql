DROP INDEX "materials_folder_created_idx";--> statement-breakpoint
DROP INDEX "materials_ent_dept_created_idx";--> statement-breakpoint
DROP INDEX "materials_ent_owner_created_idx";--> statement-breakpoint
CREATE INDEX "materials_ent_owner_dept_idx" ON "materials" USING btree ("ent_id","owner_id","dept_id");--> statement-breakpoint
CREATE INDEX "materials_folder_created_idx" ON "materials" USING btree ("folder_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"ent_id","type");--> statement-breakpoint
CREATE INDEX "materials_ent_dept_created_idx" ON "materials" USING btree ("ent_id","dept_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"folder_id","type");--> statement-breakpoint
CREATE INDEX "materials_ent_owner_created_idx" ON "materials" USING btree ("ent_id","owner_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);