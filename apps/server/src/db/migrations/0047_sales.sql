CREATE TABLE "ad_slots" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"number" text NOT NULL,
	"name" text NOT NULL,
	"screen_size" text DEFAULT '' NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"duration_sec" integer NOT NULL,
	"sales_method" text NOT NULL,
	"cpt_price" bigint,
	"cpm_price" bigint,
	"max_rotations" integer NOT NULL,
	"rtb_enabled" boolean DEFAULT false NOT NULL,
	"rtb_floor" bigint,
	"targets" jsonb NOT NULL,
	"layout_id" text,
	"region_id" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "ad_slots_method_check" CHECK ("ad_slots"."sales_method" in ('cpt', 'cpm')),
	CONSTRAINT "ad_slots_rotations_check" CHECK ("ad_slots"."max_rotations" between 1 and 60)
);
--> statement-breakpoint
CREATE TABLE "sales_booking_devices" (
	"booking_id" text NOT NULL,
	"device_id" text NOT NULL,
	CONSTRAINT "sales_booking_devices_booking_id_device_id_pk" PRIMARY KEY("booking_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "sales_bookings" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"slot_id" text NOT NULL,
	"order_id" text NOT NULL,
	"line_id" text NOT NULL,
	"kind" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"hours_mask" integer NOT NULL,
	"rotations" integer NOT NULL,
	"expires_at" timestamp with time zone,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sales_bookings_kind_check" CHECK ("sales_bookings"."kind" in ('hold', 'booked', 'makeGood'))
);
--> statement-breakpoint
CREATE TABLE "sales_contracts" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"no" text NOT NULL,
	"kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"advertiser_id" text NOT NULL,
	"title" text NOT NULL,
	"file_key" text NOT NULL,
	"sha256" text NOT NULL,
	"bytes" integer NOT NULL,
	"state" text NOT NULL,
	"channel" text NOT NULL,
	"sync_state" text,
	"provider_ref" text,
	"sync_attempts" integer DEFAULT 0 NOT NULL,
	"sync_error" text,
	"signed_file_key" text,
	"signed_sha256" text,
	"signed_by" text,
	"signed_by_name" text,
	"signed_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sales_contracts_state_check" CHECK ("sales_contracts"."state" in ('signing', 'signed')),
	CONSTRAINT "sales_contracts_kind_check" CHECK ("sales_contracts"."kind" in ('order', 'priceContract'))
);
--> statement-breakpoint
CREATE TABLE "sales_coupon_uses" (
	"id" text PRIMARY KEY NOT NULL,
	"coupon_id" text NOT NULL,
	"order_id" text NOT NULL,
	"advertiser_id" text NOT NULL,
	"saved" bigint NOT NULL,
	"used_at" timestamp with time zone NOT NULL,
	"released_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sales_coupons" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"name" text NOT NULL,
	"discount_pct" integer NOT NULL,
	"use_limit" integer NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date NOT NULL,
	"goods_ids" jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sales_coupons_pct_check" CHECK ("sales_coupons"."discount_pct" between 0 and 100),
	CONSTRAINT "sales_coupons_used_check" CHECK ("sales_coupons"."used" >= 0 and "sales_coupons"."used" <= "sales_coupons"."use_limit")
);
--> statement-breakpoint
CREATE TABLE "sales_goods" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"number" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"state" text DEFAULT 'offShelf' NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"hours_mask" integer NOT NULL,
	"sold_out" boolean DEFAULT false NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "sales_goods_kind_check" CHECK ("sales_goods"."kind" in ('single', 'programme')),
	CONSTRAINT "sales_goods_state_check" CHECK ("sales_goods"."state" in ('onSale', 'offShelf')),
	CONSTRAINT "sales_goods_period_check" CHECK ("sales_goods"."end_date" >= "sales_goods"."start_date")
);
--> statement-breakpoint
CREATE TABLE "sales_goods_lines" (
	"id" text PRIMARY KEY NOT NULL,
	"goods_id" text NOT NULL,
	"slot_id" text NOT NULL,
	"position" integer NOT NULL,
	"device_ids" jsonb NOT NULL,
	"unit_price" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_order_events" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"from_state" text,
	"to_state" text NOT NULL,
	"actor_id" text,
	"note" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_order_line_devices" (
	"line_id" text NOT NULL,
	"device_id" text NOT NULL,
	CONSTRAINT "sales_order_line_devices_line_id_device_id_pk" PRIMARY KEY("line_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "sales_order_lines" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"position" integer NOT NULL,
	"slot_id" text NOT NULL,
	"slot_name" text NOT NULL,
	"sales_method" text NOT NULL,
	"duration_sec" integer NOT NULL,
	"unit_price" bigint NOT NULL,
	"rotations" integer NOT NULL,
	"impressions_k" integer,
	"screens" integer NOT NULL,
	"list_amount" bigint NOT NULL,
	"ad_id" text
);
--> statement-breakpoint
CREATE TABLE "sales_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"no" text NOT NULL,
	"advertiser_id" text NOT NULL,
	"goods_id" text,
	"goods_name" text,
	"state" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"hours_mask" integer NOT NULL,
	"list_amount" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"paid_amount" bigint DEFAULT 0 NOT NULL,
	"refunded_amount" bigint DEFAULT 0 NOT NULL,
	"price_contract_id" text,
	"contract_discount_pct" integer DEFAULT 100 NOT NULL,
	"coupon_id" text,
	"coupon_discount_pct" integer,
	"hold_until" timestamp with time zone,
	"hold_transfer_id" text,
	"cancel_reason" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sales_orders_state_check" CHECK ("sales_orders"."state" in ('unpaid', 'paid', 'cancelled', 'settled', 'toUpload', 'inProgress')),
	CONSTRAINT "sales_orders_amount_check" CHECK ("sales_orders"."amount" >= 0 and "sales_orders"."paid_amount" + "sales_orders"."refunded_amount" <= "sales_orders"."amount")
);
--> statement-breakpoint
CREATE TABLE "sales_price_contracts" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"number" text NOT NULL,
	"name" text NOT NULL,
	"advertiser_id" text NOT NULL,
	"discount_pct" integer NOT NULL,
	"slot_prices" jsonb NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "sales_price_contracts_pct_check" CHECK ("sales_price_contracts"."discount_pct" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "sales_settings" (
	"ent_id" text PRIMARY KEY NOT NULL,
	"hold_minutes" integer NOT NULL,
	"impressions_per_play_pct" integer NOT NULL,
	"default_remedy" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_settlement_lines" (
	"settlement_id" text NOT NULL,
	"line_id" text NOT NULL,
	"device_id" text NOT NULL,
	"day" date NOT NULL,
	"expected_plays" integer NOT NULL,
	"delivered_plays" integer NOT NULL,
	"impressions" bigint NOT NULL,
	"from_audience" boolean NOT NULL,
	"under_delivered" boolean NOT NULL,
	"remedy" text,
	"amount" bigint NOT NULL,
	"credit" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "sales_settlement_lines_settlement_id_line_id_device_id_day_pk" PRIMARY KEY("settlement_id","line_id","device_id","day")
);
--> statement-breakpoint
CREATE TABLE "sales_settlements" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"state" text NOT NULL,
	"impressions_per_play_pct" integer NOT NULL,
	"expected_plays" bigint NOT NULL,
	"delivered_plays" bigint NOT NULL,
	"impressions" bigint NOT NULL,
	"billed_amount" bigint NOT NULL,
	"credit_amount" bigint NOT NULL,
	"make_good_until" date,
	"computed_at" timestamp with time zone NOT NULL,
	"confirmed_by" text,
	"confirmed_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	CONSTRAINT "sales_settlements_state_check" CHECK ("sales_settlements"."state" in ('toBePaid', 'paid', 'completed'))
);
--> statement-breakpoint
ALTER TABLE "ad_slots" ADD CONSTRAINT "ad_slots_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_slots" ADD CONSTRAINT "ad_slots_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_booking_devices" ADD CONSTRAINT "sales_booking_devices_booking_id_sales_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."sales_bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_booking_devices" ADD CONSTRAINT "sales_booking_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_bookings" ADD CONSTRAINT "sales_bookings_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_bookings" ADD CONSTRAINT "sales_bookings_slot_id_ad_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."ad_slots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_bookings" ADD CONSTRAINT "sales_bookings_order_id_sales_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."sales_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_bookings" ADD CONSTRAINT "sales_bookings_line_id_sales_order_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."sales_order_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_contracts" ADD CONSTRAINT "sales_contracts_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_contracts" ADD CONSTRAINT "sales_contracts_advertiser_id_accounts_id_fk" FOREIGN KEY ("advertiser_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_contracts" ADD CONSTRAINT "sales_contracts_signed_by_accounts_id_fk" FOREIGN KEY ("signed_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_contracts" ADD CONSTRAINT "sales_contracts_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_coupon_uses" ADD CONSTRAINT "sales_coupon_uses_coupon_id_sales_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."sales_coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_coupon_uses" ADD CONSTRAINT "sales_coupon_uses_order_id_sales_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."sales_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_coupon_uses" ADD CONSTRAINT "sales_coupon_uses_advertiser_id_accounts_id_fk" FOREIGN KEY ("advertiser_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_coupons" ADD CONSTRAINT "sales_coupons_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_coupons" ADD CONSTRAINT "sales_coupons_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_goods" ADD CONSTRAINT "sales_goods_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_goods" ADD CONSTRAINT "sales_goods_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_goods_lines" ADD CONSTRAINT "sales_goods_lines_goods_id_sales_goods_id_fk" FOREIGN KEY ("goods_id") REFERENCES "public"."sales_goods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_goods_lines" ADD CONSTRAINT "sales_goods_lines_slot_id_ad_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."ad_slots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_order_events" ADD CONSTRAINT "sales_order_events_order_id_sales_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."sales_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_order_events" ADD CONSTRAINT "sales_order_events_actor_id_accounts_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_order_line_devices" ADD CONSTRAINT "sales_order_line_devices_line_id_sales_order_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."sales_order_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_order_line_devices" ADD CONSTRAINT "sales_order_line_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_order_lines" ADD CONSTRAINT "sales_order_lines_order_id_sales_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."sales_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_order_lines" ADD CONSTRAINT "sales_order_lines_slot_id_ad_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."ad_slots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_order_lines" ADD CONSTRAINT "sales_order_lines_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_orders" ADD CONSTRAINT "sales_orders_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_orders" ADD CONSTRAINT "sales_orders_advertiser_id_accounts_id_fk" FOREIGN KEY ("advertiser_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_orders" ADD CONSTRAINT "sales_orders_goods_id_sales_goods_id_fk" FOREIGN KEY ("goods_id") REFERENCES "public"."sales_goods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_orders" ADD CONSTRAINT "sales_orders_price_contract_id_sales_price_contracts_id_fk" FOREIGN KEY ("price_contract_id") REFERENCES "public"."sales_price_contracts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_orders" ADD CONSTRAINT "sales_orders_coupon_id_sales_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."sales_coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_orders" ADD CONSTRAINT "sales_orders_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_price_contracts" ADD CONSTRAINT "sales_price_contracts_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_price_contracts" ADD CONSTRAINT "sales_price_contracts_advertiser_id_accounts_id_fk" FOREIGN KEY ("advertiser_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_price_contracts" ADD CONSTRAINT "sales_price_contracts_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_settings" ADD CONSTRAINT "sales_settings_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_settlement_lines" ADD CONSTRAINT "sales_settlement_lines_settlement_id_sales_settlements_id_fk" FOREIGN KEY ("settlement_id") REFERENCES "public"."sales_settlements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_settlement_lines" ADD CONSTRAINT "sales_settlement_lines_line_id_sales_order_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."sales_order_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_settlements" ADD CONSTRAINT "sales_settlements_order_id_sales_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."sales_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_settlements" ADD CONSTRAINT "sales_settlements_confirmed_by_accounts_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ad_slots_number_key" ON "ad_slots" USING btree ("number");--> statement-breakpoint
CREATE INDEX "ad_slots_ent_idx" ON "ad_slots" USING btree ("ent_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "sales_booking_devices_device_idx" ON "sales_booking_devices" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "sales_bookings_live_idx" ON "sales_bookings" USING btree ("slot_id","start_date","end_date") WHERE "sales_bookings"."released_at" is null;--> statement-breakpoint
CREATE INDEX "sales_bookings_order_idx" ON "sales_bookings" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sales_contracts_no_key" ON "sales_contracts" USING btree ("no");--> statement-breakpoint
CREATE UNIQUE INDEX "sales_contracts_subject_key" ON "sales_contracts" USING btree ("kind","subject_id");--> statement-breakpoint
CREATE INDEX "sales_contracts_ent_idx" ON "sales_contracts" USING btree ("ent_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "sales_contracts_sync_idx" ON "sales_contracts" USING btree ("sync_state") WHERE "sales_contracts"."sync_state" in ('unsynchronized', 'synchronizing', 'failed');--> statement-breakpoint
CREATE UNIQUE INDEX "sales_coupon_uses_order_key" ON "sales_coupon_uses" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "sales_coupon_uses_coupon_idx" ON "sales_coupon_uses" USING btree ("coupon_id","used_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "sales_coupons_ent_idx" ON "sales_coupons" USING btree ("ent_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE UNIQUE INDEX "sales_goods_number_key" ON "sales_goods" USING btree ("number");--> statement-breakpoint
CREATE INDEX "sales_goods_ent_idx" ON "sales_goods" USING btree ("ent_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE UNIQUE INDEX "sales_goods_lines_goods_slot_key" ON "sales_goods_lines" USING btree ("goods_id","slot_id");--> statement-breakpoint
CREATE INDEX "sales_goods_lines_slot_idx" ON "sales_goods_lines" USING btree ("slot_id");--> statement-breakpoint
CREATE INDEX "sales_order_events_order_idx" ON "sales_order_events" USING btree ("order_id","at");--> statement-breakpoint
CREATE INDEX "sales_order_line_devices_device_idx" ON "sales_order_line_devices" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sales_order_lines_pos_key" ON "sales_order_lines" USING btree ("order_id","position");--> statement-breakpoint
CREATE INDEX "sales_order_lines_ad_idx" ON "sales_order_lines" USING btree ("ad_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sales_orders_no_key" ON "sales_orders" USING btree ("no");--> statement-breakpoint
CREATE INDEX "sales_orders_ent_created_idx" ON "sales_orders" USING btree ("ent_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "sales_orders_adv_idx" ON "sales_orders" USING btree ("advertiser_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "sales_orders_hold_idx" ON "sales_orders" USING btree ("hold_until") WHERE "sales_orders"."state" = 'unpaid';--> statement-breakpoint
CREATE INDEX "sales_orders_open_idx" ON "sales_orders" USING btree ("state","start_date") WHERE "sales_orders"."state" in ('paid', 'toUpload', 'inProgress');--> statement-breakpoint
CREATE UNIQUE INDEX "sales_price_contracts_number_key" ON "sales_price_contracts" USING btree ("number");--> statement-breakpoint
CREATE INDEX "sales_price_contracts_adv_idx" ON "sales_price_contracts" USING btree ("ent_id","advertiser_id","valid_from");--> statement-breakpoint
CREATE INDEX "sales_settlement_lines_under_idx" ON "sales_settlement_lines" USING btree ("settlement_id") WHERE "sales_settlement_lines"."under_delivered";--> statement-breakpoint
CREATE UNIQUE INDEX "sales_settlements_order_key" ON "sales_settlements" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "sales_settlements_paid_idx" ON "sales_settlements" USING btree ("make_good_until") WHERE "sales_settlements"."state" = 'paid';--> statement-breakpoint
-- Advertisers order airtime (issue 28): the built-in advertiser roles get the pages they order on.
UPDATE "roles" SET "permission_codes" = (
  SELECT array_agg(DISTINCT c) FROM unnest("permission_codes" || ARRAY['yxf_new_operate', 'yxf_new_operate_goods', 'yxf_new_operate_order', 'yxf_new_operate_sign_contract']) AS c
) WHERE "builtin_key" = 'advertiser';--> statement-breakpoint
-- The enterprise administrators and platform operators keep the sales (a new code).
UPDATE "roles" SET "permission_codes" = (
  SELECT array_agg(DISTINCT c) FROM unnest("permission_codes" || ARRAY['yxf_new_operate_sales_manage']) AS c
) WHERE "builtin_key" IN ('enterprise_admin', 'platform_operator');--> statement-breakpoint
-- A signed contract is immutable: its document, hash, signer and time never change again.
CREATE FUNCTION "sales_contracts_signed_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."state" = 'signed' AND (
    NEW."state" IS DISTINCT FROM OLD."state" OR NEW."file_key" IS DISTINCT FROM OLD."file_key"
    OR NEW."sha256" IS DISTINCT FROM OLD."sha256" OR NEW."signed_file_key" IS DISTINCT FROM OLD."signed_file_key"
    OR NEW."signed_sha256" IS DISTINCT FROM OLD."signed_sha256" OR NEW."signed_by" IS DISTINCT FROM OLD."signed_by"
    OR NEW."signed_by_name" IS DISTINCT FROM OLD."signed_by_name" OR NEW."signed_at" IS DISTINCT FROM OLD."signed_at"
  ) THEN
    RAISE EXCEPTION 'a signed contract is immutable' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "sales_contracts_signed_immutable" BEFORE UPDATE ON "sales_contracts"
  FOR EACH ROW EXECUTE FUNCTION "sales_contracts_signed_immutable"();--> statement-breakpoint
CREATE FUNCTION "sales_contracts_signed_undeletable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a signed contract cannot be deleted' USING ERRCODE = 'check_violation';
END $$;--> statement-breakpoint
CREATE TRIGGER "sales_contracts_no_delete" BEFORE DELETE ON "sales_contracts"
  FOR EACH ROW WHEN (OLD."state" = 'signed') EXECUTE FUNCTION "sales_contracts_signed_undeletable"();
--> statement-breakpoint
-- Numbers of slots, goods and price contracts (9 digits, unique on the platform), and the sequence of order and contract numbers (modules/sales/numbers.ts).
CREATE SEQUENCE IF NOT EXISTS "sales_number_seq" INCREMENT BY 1 MINVALUE 100000000 MAXVALUE 999999999 START WITH 100000001 CACHE 1;--> statement-breakpoint
CREATE SEQUENCE IF NOT EXISTS "sales_doc_no_seq";
