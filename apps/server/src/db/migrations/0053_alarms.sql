CREATE TABLE "alarm_contacts" (
	"id" text PRIMARY KEY NOT NULL,
	"region_id" text NOT NULL,
	"ent_id" text NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"email" text,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarm_events" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"device_id" text NOT NULL,
	"client_id" text NOT NULL,
	"raised_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'raised' NOT NULL,
	"region_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"region_names" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"screenshot_key" text,
	"screenshot_type" text,
	"screenshot_width" integer,
	"screenshot_height" integer,
	"acknowledged_at" timestamp with time zone,
	"handled_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alarm_events_state_check" CHECK ("alarm_events"."state" in ('raised', 'acknowledged', 'handled', 'closed'))
);
--> statement-breakpoint
CREATE TABLE "alarm_regions" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"name" text NOT NULL,
	"region_codes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"device_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarm_steps" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor_id" text,
	"actor_name" text,
	"note" text DEFAULT '' NOT NULL,
	"contact_name" text,
	"target" text,
	"channel" text,
	"outcome" text,
	"error" text,
	CONSTRAINT "alarm_steps_kind_check" CHECK ("alarm_steps"."kind" in ('raised', 'notified', 'acknowledged', 'handled', 'closed'))
);
--> statement-breakpoint
ALTER TABLE "alarm_contacts" ADD CONSTRAINT "alarm_contacts_region_id_alarm_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."alarm_regions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_events" ADD CONSTRAINT "alarm_events_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_events" ADD CONSTRAINT "alarm_events_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_regions" ADD CONSTRAINT "alarm_regions_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_steps" ADD CONSTRAINT "alarm_steps_event_id_alarm_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."alarm_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alarm_contacts_region_idx" ON "alarm_contacts" USING btree ("region_id","sort");--> statement-breakpoint
CREATE UNIQUE INDEX "alarm_events_device_client_key" ON "alarm_events" USING btree ("device_id","client_id");--> statement-breakpoint
CREATE INDEX "alarm_events_ent_received_idx" ON "alarm_events" USING btree ("ent_id","received_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "alarm_events_ent_open_idx" ON "alarm_events" USING btree ("ent_id","received_at") WHERE "alarm_events"."state" <> 'closed';--> statement-breakpoint
CREATE UNIQUE INDEX "alarm_regions_ent_name_key" ON "alarm_regions" USING btree ("ent_id","name");--> statement-breakpoint
CREATE INDEX "alarm_steps_event_idx" ON "alarm_steps" USING btree ("event_id","at");