CREATE TABLE "device_commands" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"device_id" text NOT NULL,
	"kind" text NOT NULL,
	"params" jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"account_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error_code" text,
	"error_message" text,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"acked_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "device_commands_state_check" CHECK ("device_commands"."state" in ('pending', 'sent', 'acknowledged', 'failed', 'expired'))
);
--> statement-breakpoint
CREATE TABLE "device_pairings" (
	"id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"token_hash" text NOT NULL,
	"number" text,
	"player_version" text,
	"model" text,
	"ip" text,
	"expires_at" timestamp with time zone NOT NULL,
	"device_id" text,
	"bound_at" timestamp with time zone,
	"claimed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_status_history" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"device_id" text NOT NULL,
	"status" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"dept_id" text,
	"owner_id" text,
	"number" text,
	"name" text NOT NULL,
	"status" text DEFAULT 'activating' NOT NULL,
	"secret_hash" text,
	"heartbeat_sec" integer DEFAULT 30 NOT NULL,
	"last_seen_at" timestamp with time zone,
	"status_at" timestamp with time zone DEFAULT now() NOT NULL,
	"state_ts" bigint,
	"activated_at" timestamp with time zone,
	"player_version" text,
	"firmware" text,
	"model" text,
	"ip" text,
	"mac" text,
	"storage_used" bigint,
	"storage_free" bigint,
	"screen_width" integer,
	"screen_height" integer,
	"screen_on" integer,
	"volume" integer,
	"brightness" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "devices_status_check" CHECK ("devices"."status" in ('online', 'offline', 'invalid', 'activating', 'trial'))
);
--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_pairings" ADD CONSTRAINT "device_pairings_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_status_history" ADD CONSTRAINT "device_status_history_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_dept_id_departments_id_fk" FOREIGN KEY ("dept_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_commands_device_created_idx" ON "device_commands" USING btree ("device_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "device_commands_open_idx" ON "device_commands" USING btree ("device_id","created_at") WHERE "device_commands"."state" in ('pending', 'sent');--> statement-breakpoint
CREATE INDEX "device_pairings_code_idx" ON "device_pairings" USING btree ("code","expires_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "device_pairings_number_idx" ON "device_pairings" USING btree ("number","expires_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "device_status_history_device_at_idx" ON "device_status_history" USING btree ("device_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "devices_number_key" ON "devices" USING btree ("number");--> statement-breakpoint
CREATE INDEX "devices_ent_created_idx" ON "devices" USING btree ("ent_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "devices_ent_dept_idx" ON "devices" USING btree ("ent_id","dept_id");--> statement-breakpoint
CREATE INDEX "devices_ent_status_idx" ON "devices" USING btree ("ent_id","status");