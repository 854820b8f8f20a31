CREATE TABLE "warning_recipients" (
	"ent_id" text NOT NULL,
	"kind" text NOT NULL,
	"account_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "warning_recipients_ent_id_kind_account_id_pk" PRIMARY KEY("ent_id","kind","account_id")
);
--> statement-breakpoint
CREATE TABLE "warnings" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"kind" text NOT NULL,
	"level" text NOT NULL,
	"object_type" text NOT NULL,
	"object_id" text NOT NULL,
	"object_name" text NOT NULL,
	"dept_id" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"acknowledged_by" text,
	"acknowledged_at" timestamp with time zone,
	"resolved_at" timestamp with time zone,
	"notified_at" timestamp with time zone,
	CONSTRAINT "warnings_state_check" CHECK ("warnings"."state" in ('open', 'acknowledged', 'resolved')),
	CONSTRAINT "warnings_level_check" CHECK ("warnings"."level" in ('notice', 'warning', 'critical'))
);
--> statement-breakpoint
ALTER TABLE "warning_recipients" ADD CONSTRAINT "warning_recipients_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warning_recipients" ADD CONSTRAINT "warning_recipients_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warnings" ADD CONSTRAINT "warnings_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warnings" ADD CONSTRAINT "warnings_acknowledged_by_accounts_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "warnings_live_key" ON "warnings" USING btree ("kind","object_id") WHERE "warnings"."state" <> 'resolved';--> statement-breakpoint
CREATE INDEX "warnings_ent_opened_idx" ON "warnings" USING btree ("ent_id","opened_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "warnings_ent_live_kind_idx" ON "warnings" USING btree ("ent_id","kind") WHERE "warnings"."state" <> 'resolved';--> statement-breakpoint
CREATE INDEX "warnings_unnotified_idx" ON "warnings" USING btree ("opened_at") WHERE "warnings"."notified_at" is null;--> statement-breakpoint
-- Hand DDL (issue 30, warnings): the facts the warnings-evaluate job reads by index.
-- Ads still to end, by end (adExpiring); failed downloads by device (downloadFailing).
CREATE INDEX "warnings_ads_live_end_idx" ON "ads" USING btree ("end_at") WHERE "deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "warnings_device_downloads_failed_idx" ON "device_downloads" USING btree ("device_id") WHERE "state" = 'failed';
