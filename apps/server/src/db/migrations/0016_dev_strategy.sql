CREATE TABLE "device_strategies" (
	"device_id" text NOT NULL,
	"type" text NOT NULL,
	"ent_id" text NOT NULL,
	"strategy_id" text NOT NULL,
	"version" integer NOT NULL,
	"command_id" text,
	"applied_at" timestamp with time zone NOT NULL,
	CONSTRAINT "device_strategies_device_id_type_pk" PRIMARY KEY("device_id","type")
);
--> statement-breakpoint
CREATE TABLE "strategies" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"dept_id" text,
	"owner_id" text,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"rules" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "strategies_type_check" CHECK ("strategies"."type" in ('power', 'volume', 'brightness', 'operation', 'download'))
);
--> statement-breakpoint
CREATE TABLE "strategy_application_devices" (
	"application_id" text NOT NULL,
	"device_id" text NOT NULL,
	"command_id" text NOT NULL,
	CONSTRAINT "strategy_application_devices_application_id_device_id_pk" PRIMARY KEY("application_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "strategy_applications" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"strategy_id" text NOT NULL,
	"version" integer NOT NULL,
	"account_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_strategies" ADD CONSTRAINT "device_strategies_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_strategies" ADD CONSTRAINT "device_strategies_strategy_id_strategies_id_fk" FOREIGN KEY ("strategy_id") REFERENCES "public"."strategies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_strategies" ADD CONSTRAINT "device_strategies_command_id_device_commands_id_fk" FOREIGN KEY ("command_id") REFERENCES "public"."device_commands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategies" ADD CONSTRAINT "strategies_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategies" ADD CONSTRAINT "strategies_dept_id_departments_id_fk" FOREIGN KEY ("dept_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategies" ADD CONSTRAINT "strategies_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategy_application_devices" ADD CONSTRAINT "strategy_application_devices_application_id_strategy_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."strategy_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategy_application_devices" ADD CONSTRAINT "strategy_application_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategy_application_devices" ADD CONSTRAINT "strategy_application_devices_command_id_device_commands_id_fk" FOREIGN KEY ("command_id") REFERENCES "public"."device_commands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategy_applications" ADD CONSTRAINT "strategy_applications_strategy_id_strategies_id_fk" FOREIGN KEY ("strategy_id") REFERENCES "public"."strategies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_strategies_strategy_idx" ON "device_strategies" USING btree ("strategy_id");--> statement-breakpoint
CREATE INDEX "strategies_ent_type_updated_idx" ON "strategies" USING btree ("ent_id","type","updated_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "strategies_ent_dept_idx" ON "strategies" USING btree ("ent_id","dept_id");--> statement-breakpoint
CREATE INDEX "strategy_applications_strategy_idx" ON "strategy_applications" USING btree ("strategy_id","created_at" DESC NULLS LAST);