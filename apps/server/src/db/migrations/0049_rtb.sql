CREATE TABLE "rtb_auctions" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"slot_id" text NOT NULL,
	"device_id" text NOT NULL,
	"turn_at" timestamp with time zone NOT NULL,
	"duration_sec" integer NOT NULL,
	"decided_at" timestamp with time zone NOT NULL,
	"floor_cpm" bigint NOT NULL,
	"qty_milli" integer NOT NULL,
	"qty_source" text NOT NULL,
	"bidders" integer NOT NULL,
	"bids" integer NOT NULL,
	"timeouts" integer NOT NULL,
	"state" text NOT NULL,
	"winner_kind" text,
	"campaign_id" text,
	"dsp_id" text,
	"ad_id" text,
	"clearing_cpm" bigint,
	"price" bigint,
	"billing_url" text,
	"billed_at" timestamp with time zone,
	"proof_event_id" text,
	"bid_log" jsonb NOT NULL,
	CONSTRAINT "rtb_auctions_state_check" CHECK ("rtb_auctions"."state" in ('noBid', 'won', 'billed', 'unproven'))
);
--> statement-breakpoint
CREATE TABLE "rtb_campaigns" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"advertiser_id" text NOT NULL,
	"name" text NOT NULL,
	"state" text DEFAULT 'active' NOT NULL,
	"bid_cpm" bigint NOT NULL,
	"daily_budget" bigint,
	"total_budget" bigint NOT NULL,
	"spent" bigint DEFAULT 0 NOT NULL,
	"reserved" bigint DEFAULT 0 NOT NULL,
	"day_key" text DEFAULT '' NOT NULL,
	"day_committed" bigint DEFAULT 0 NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"hours_mask" integer NOT NULL,
	"weekdays_mask" integer NOT NULL,
	"targets" jsonb NOT NULL,
	"pacing" text DEFAULT 'even' NOT NULL,
	"ad_id" text,
	"hold_transfer_id" text,
	"hold_seq" integer DEFAULT 0 NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "rtb_campaigns_state_check" CHECK ("rtb_campaigns"."state" in ('active', 'paused', 'ended')),
	CONSTRAINT "rtb_campaigns_pacing_check" CHECK ("rtb_campaigns"."pacing" in ('even', 'asap')),
	CONSTRAINT "rtb_campaigns_budget_check" CHECK ("rtb_campaigns"."spent" >= 0 and "rtb_campaigns"."reserved" >= 0 and "rtb_campaigns"."spent" + "rtb_campaigns"."reserved" <= "rtb_campaigns"."total_budget")
);
--> statement-breakpoint
CREATE TABLE "rtb_creatives" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"dsp_id" text NOT NULL,
	"crid" text NOT NULL,
	"url" text NOT NULL,
	"state" text DEFAULT 'fetching' NOT NULL,
	"ad_id" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rtb_dsp_hours" (
	"dsp_id" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"bids" integer DEFAULT 0 NOT NULL,
	"timeouts" integer DEFAULT 0 NOT NULL,
	"invalid" integer DEFAULT 0 NOT NULL,
	"wins" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rtb_dsp_hours_dsp_id_hour_pk" PRIMARY KEY("dsp_id","hour")
);
--> statement-breakpoint
CREATE TABLE "rtb_dsps" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"name" text NOT NULL,
	"endpoint" text NOT NULL,
	"seat" text DEFAULT '' NOT NULL,
	"timeout_ms" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ad_slots" ADD COLUMN "rtb_fallback_ad_id" text;--> statement-breakpoint
ALTER TABLE "ad_slots" ADD COLUMN "venue_type" text DEFAULT 'retail.malls' NOT NULL;--> statement-breakpoint
ALTER TABLE "rtb_auctions" ADD CONSTRAINT "rtb_auctions_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rtb_auctions" ADD CONSTRAINT "rtb_auctions_slot_id_ad_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."ad_slots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rtb_auctions" ADD CONSTRAINT "rtb_auctions_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rtb_auctions" ADD CONSTRAINT "rtb_auctions_campaign_id_rtb_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."rtb_campaigns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rtb_auctions" ADD CONSTRAINT "rtb_auctions_dsp_id_rtb_dsps_id_fk" FOREIGN KEY ("dsp_id") REFERENCES "public"."rtb_dsps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rtb_auctions" ADD CONSTRAINT "rtb_auctions_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rtb_campaigns" ADD CONSTRAINT "rtb_campaigns_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rtb_campaigns" ADD CONSTRAINT "rtb_campaigns_advertiser_id_accounts_id_fk" FOREIGN KEY ("advertiser_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rtb_campaigns" ADD CONSTRAINT "rtb_campaigns_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rtb_campaigns" ADD CONSTRAINT "rtb_campaigns_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rtb_creatives" ADD CONSTRAINT "rtb_creatives_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rtb_creatives" ADD CONSTRAINT "rtb_creatives_dsp_id_rtb_dsps_id_fk" FOREIGN KEY ("dsp_id") REFERENCES "public"."rtb_dsps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rtb_creatives" ADD CONSTRAINT "rtb_creatives_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rtb_dsp_hours" ADD CONSTRAINT "rtb_dsp_hours_dsp_id_rtb_dsps_id_fk" FOREIGN KEY ("dsp_id") REFERENCES "public"."rtb_dsps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rtb_dsps" ADD CONSTRAINT "rtb_dsps_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rtb_auctions_turn_key" ON "rtb_auctions" USING btree ("slot_id","device_id","turn_at");--> statement-breakpoint
CREATE INDEX "rtb_auctions_device_idx" ON "rtb_auctions" USING btree ("device_id","turn_at");--> statement-breakpoint
CREATE INDEX "rtb_auctions_ent_idx" ON "rtb_auctions" USING btree ("ent_id","turn_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "rtb_auctions_won_idx" ON "rtb_auctions" USING btree ("turn_at") WHERE "rtb_auctions"."state" = 'won';--> statement-breakpoint
CREATE UNIQUE INDEX "rtb_auctions_proof_key" ON "rtb_auctions" USING btree ("proof_event_id");--> statement-breakpoint
CREATE INDEX "rtb_auctions_campaign_idx" ON "rtb_auctions" USING btree ("campaign_id","turn_at") WHERE "rtb_auctions"."campaign_id" is not null;--> statement-breakpoint
CREATE INDEX "rtb_campaigns_ent_idx" ON "rtb_campaigns" USING btree ("ent_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "rtb_campaigns_adv_idx" ON "rtb_campaigns" USING btree ("advertiser_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "rtb_campaigns_live_idx" ON "rtb_campaigns" USING btree ("ent_id","end_date") WHERE "rtb_campaigns"."state" = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "rtb_creatives_key" ON "rtb_creatives" USING btree ("dsp_id","crid");--> statement-breakpoint
CREATE INDEX "rtb_dsps_ent_idx" ON "rtb_dsps" USING btree ("ent_id","created_at");--> statement-breakpoint
ALTER TABLE "ad_slots" ADD CONSTRAINT "ad_slots_rtb_fallback_ad_id_ads_id_fk" FOREIGN KEY ("rtb_fallback_ad_id") REFERENCES "public"."ads"("id") ON DELETE no action ON UPDATE no action;