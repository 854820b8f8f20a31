CREATE TABLE "upgrade_packages" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"kind" text NOT NULL,
	"version" text NOT NULL,
	"device_type" text DEFAULT '' NOT NULL,
	"file_key" text NOT NULL,
	"file_name" text NOT NULL,
	"size" bigint DEFAULT 0 NOT NULL,
	"sha256" text DEFAULT '' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"state" text DEFAULT 'uploading' NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "upgrade_packages_kind_check" CHECK ("upgrade_packages"."kind" in ('apk', 'firmware')),
	CONSTRAINT "upgrade_packages_state_check" CHECK ("upgrade_packages"."state" in ('uploading', 'ready'))
);
--> statement-breakpoint
CREATE TABLE "upgrade_rollout_devices" (
	"id" text PRIMARY KEY NOT NULL,
	"rollout_id" text NOT NULL,
	"device_id" text NOT NULL,
	"stage" integer NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"command_id" text,
	"previous_version" text,
	"reason" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "upgrade_rollout_devices_state_check" CHECK ("upgrade_rollout_devices"."state" in ('queued', 'sent', 'downloading', 'installing', 'done', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "upgrade_rollouts" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"package_id" text NOT NULL,
	"rollback_of" text,
	"canary_percent" integer NOT NULL,
	"failure_threshold" integer NOT NULL,
	"auto_continue" integer DEFAULT 0 NOT NULL,
	"state" text NOT NULL,
	"stage" integer DEFAULT 1 NOT NULL,
	"halt_reason" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "upgrade_rollouts_state_check" CHECK ("upgrade_rollouts"."state" in ('canary', 'waiting', 'rolling', 'done', 'halted', 'rolledBack'))
);
--> statement-breakpoint
ALTER TABLE "upgrade_packages" ADD CONSTRAINT "upgrade_packages_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_packages" ADD CONSTRAINT "upgrade_packages_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_rollout_devices" ADD CONSTRAINT "upgrade_rollout_devices_rollout_id_upgrade_rollouts_id_fk" FOREIGN KEY ("rollout_id") REFERENCES "public"."upgrade_rollouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_rollout_devices" ADD CONSTRAINT "upgrade_rollout_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_rollout_devices" ADD CONSTRAINT "upgrade_rollout_devices_command_id_device_commands_id_fk" FOREIGN KEY ("command_id") REFERENCES "public"."device_commands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_rollouts" ADD CONSTRAINT "upgrade_rollouts_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_rollouts" ADD CONSTRAINT "upgrade_rollouts_package_id_upgrade_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."upgrade_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_rollouts" ADD CONSTRAINT "upgrade_rollouts_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "upgrade_packages_ent_idx" ON "upgrade_packages" USING btree ("ent_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE UNIQUE INDEX "upgrade_rollout_devices_key" ON "upgrade_rollout_devices" USING btree ("rollout_id","device_id");--> statement-breakpoint
CREATE INDEX "upgrade_rollout_devices_command_idx" ON "upgrade_rollout_devices" USING btree ("command_id");--> statement-breakpoint
CREATE INDEX "upgrade_rollouts_ent_idx" ON "upgrade_rollouts" USING btree ("ent_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "upgrade_rollouts_package_idx" ON "upgrade_rollouts" USING btree ("package_id");