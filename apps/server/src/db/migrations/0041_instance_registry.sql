-- The running server instances and which one holds each device's broker connection
-- (several instances, each with its embedded broker, on one PostgreSQL: issue 25).
CREATE TABLE "device_connections" (
	"device_id" text PRIMARY KEY NOT NULL,
	"instance_id" text NOT NULL,
	"session" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_instances" (
	"id" text PRIMARY KEY NOT NULL,
	"broker_urls" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_connections" ADD CONSTRAINT "device_connections_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_connections_instance_idx" ON "device_connections" USING btree ("instance_id");