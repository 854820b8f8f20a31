CREATE TABLE "delivery_days" (
	"device_id" text NOT NULL,
	"day" date NOT NULL,
	"ent_id" text NOT NULL,
	"expected" integer NOT NULL,
	"delivered" integer NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "delivery_days_device_id_day_pk" PRIMARY KEY("device_id","day")
);
--> statement-breakpoint
CREATE INDEX "delivery_days_ent_day_idx" ON "delivery_days" USING btree ("ent_id","day");