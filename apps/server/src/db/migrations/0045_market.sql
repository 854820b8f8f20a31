CREATE TABLE "flow_days" (
	"ent_id" text NOT NULL,
	"day" date NOT NULL,
	"device_id" text NOT NULL,
	"card_id" text DEFAULT '' NOT NULL,
	"bytes" bigint NOT NULL,
	CONSTRAINT "flow_days_ent_id_day_device_id_card_id_pk" PRIMARY KEY("ent_id","day","device_id","card_id")
);
--> statement-breakpoint
CREATE TABLE "flow_ent_days" (
	"ent_id" text NOT NULL,
	"day" date NOT NULL,
	"bytes" bigint NOT NULL,
	CONSTRAINT "flow_ent_days_ent_id_day_pk" PRIMARY KEY("ent_id","day")
);
--> statement-breakpoint
CREATE TABLE "flow_samples" (
	"day" date NOT NULL,
	"id" text NOT NULL,
	"device_id" text NOT NULL,
	"bytes" bigint NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "flow_samples_day_id_pk" PRIMARY KEY("day","id")
);
--> statement-breakpoint
CREATE TABLE "iot_cards" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"iccid" text NOT NULL,
	"operator" text NOT NULL,
	"state" text DEFAULT 'stock' NOT NULL,
	"device_id" text,
	"package_name" text,
	"package_mb" integer,
	"activated_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "iot_cards_state_check" CHECK ("iot_cards"."state" in ('toActivate', 'activated', 'suspended', 'cancelled', 'stock', 'testable', 'lapsed'))
);
--> statement-breakpoint
CREATE TABLE "market_items" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"kind" text NOT NULL,
	"subject_id" text,
	"product_id" text NOT NULL,
	"months" integer NOT NULL,
	"storage_bytes" bigint,
	"state" text DEFAULT 'active' NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"auto_renew" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "market_items_kind_check" CHECK ("market_items"."kind" in ('devicePoints', 'storagePack', 'dataCard')),
	CONSTRAINT "market_items_state_check" CHECK ("market_items"."state" in ('active', 'expired'))
);
--> statement-breakpoint
CREATE TABLE "market_order_lines" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" text,
	"item_id" text,
	"subject_name" text NOT NULL,
	"amount" bigint NOT NULL,
	"expires_before" timestamp with time zone,
	"expires_after" timestamp with time zone,
	CONSTRAINT "market_order_lines_type_check" CHECK ("market_order_lines"."subject_type" in ('device', 'card', 'pack'))
);
--> statement-breakpoint
CREATE TABLE "market_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"no" text NOT NULL,
	"ent_id" text NOT NULL,
	"product_id" text NOT NULL,
	"kind" text NOT NULL,
	"product_name" text NOT NULL,
	"months" integer NOT NULL,
	"unit_price" bigint NOT NULL,
	"quantity" integer NOT NULL,
	"amount" bigint NOT NULL,
	"state" text NOT NULL,
	"source" text NOT NULL,
	"auto_renew" boolean DEFAULT false NOT NULL,
	"pay_order_id" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "market_orders_amount_check" CHECK ("market_orders"."amount" > 0 and "market_orders"."quantity" > 0),
	CONSTRAINT "market_orders_state_check" CHECK ("market_orders"."state" in ('unpaid', 'paid', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "market_products" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"state" text DEFAULT 'offShelf' NOT NULL,
	"prices" jsonb NOT NULL,
	"storage_bytes" bigint,
	"data_mb_per_month" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "market_products_kind_check" CHECK ("market_products"."kind" in ('devicePoints', 'storagePack', 'dataCard')),
	CONSTRAINT "market_products_state_check" CHECK ("market_products"."state" in ('onSale', 'offShelf'))
);
--> statement-breakpoint
CREATE TABLE "market_renewals" (
	"id" text PRIMARY KEY NOT NULL,
	"item_id" text NOT NULL,
	"ent_id" text NOT NULL,
	"day" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"outcome" text NOT NULL,
	"reason" text,
	"amount" bigint NOT NULL,
	"order_id" text,
	"effective_at" timestamp with time zone,
	"expires_before" timestamp with time zone NOT NULL,
	"expires_after" timestamp with time zone,
	CONSTRAINT "market_renewals_outcome_check" CHECK ("market_renewals"."outcome" in ('succeeded', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "iot_cards" ADD CONSTRAINT "iot_cards_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "iot_cards" ADD CONSTRAINT "iot_cards_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_items" ADD CONSTRAINT "market_items_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_items" ADD CONSTRAINT "market_items_product_id_market_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."market_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_order_lines" ADD CONSTRAINT "market_order_lines_order_id_market_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."market_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_orders" ADD CONSTRAINT "market_orders_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_orders" ADD CONSTRAINT "market_orders_product_id_market_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."market_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_orders" ADD CONSTRAINT "market_orders_pay_order_id_pay_orders_id_fk" FOREIGN KEY ("pay_order_id") REFERENCES "public"."pay_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_orders" ADD CONSTRAINT "market_orders_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_renewals" ADD CONSTRAINT "market_renewals_item_id_market_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."market_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_renewals" ADD CONSTRAINT "market_renewals_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_renewals" ADD CONSTRAINT "market_renewals_order_id_market_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."market_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "flow_days_card_day_idx" ON "flow_days" USING btree ("card_id","day");--> statement-breakpoint
CREATE INDEX "flow_days_device_day_idx" ON "flow_days" USING btree ("device_id","day");--> statement-breakpoint
CREATE INDEX "flow_samples_received_idx" ON "flow_samples" USING btree ("received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "iot_cards_iccid_key" ON "iot_cards" USING btree ("iccid");--> statement-breakpoint
CREATE UNIQUE INDEX "iot_cards_device_key" ON "iot_cards" USING btree ("device_id") WHERE "iot_cards"."device_id" is not null;--> statement-breakpoint
CREATE INDEX "iot_cards_ent_created_idx" ON "iot_cards" USING btree ("ent_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "iot_cards_ent_state_idx" ON "iot_cards" USING btree ("ent_id","state");--> statement-breakpoint
CREATE UNIQUE INDEX "market_items_subject_key" ON "market_items" USING btree ("kind","subject_id") WHERE "market_items"."subject_id" is not null;--> statement-breakpoint
CREATE INDEX "market_items_ent_expires_idx" ON "market_items" USING btree ("ent_id","expires_at","id");--> statement-breakpoint
CREATE INDEX "market_items_renew_idx" ON "market_items" USING btree ("expires_at") WHERE "market_items"."auto_renew" and "market_items"."state" = 'active';--> statement-breakpoint
CREATE INDEX "market_items_active_expires_idx" ON "market_items" USING btree ("expires_at") WHERE "market_items"."state" = 'active';--> statement-breakpoint
CREATE INDEX "market_order_lines_order_idx" ON "market_order_lines" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "market_orders_no_key" ON "market_orders" USING btree ("no");--> statement-breakpoint
CREATE UNIQUE INDEX "market_orders_pay_order_key" ON "market_orders" USING btree ("pay_order_id");--> statement-breakpoint
CREATE INDEX "market_orders_ent_created_idx" ON "market_orders" USING btree ("ent_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "market_products_kind_idx" ON "market_products" USING btree ("kind","state");--> statement-breakpoint
CREATE UNIQUE INDEX "market_renewals_item_day_key" ON "market_renewals" USING btree ("item_id","day");--> statement-breakpoint
CREATE INDEX "market_renewals_ent_at_idx" ON "market_renewals" USING btree ("ent_id","at" DESC NULLS LAST,"id");--> statement-breakpoint
-- Issue 27: a device paired before licences existed starts a 30-day trial (DEVICE_TRIAL_DAYS)
-- from this upgrade; a pre-registered row (never paired) gets its trial when it pairs.
UPDATE "devices" SET "expire_at" = greatest("created_at", now()) + interval '30 days'
  WHERE "expire_at" IS NULL AND "status" NOT IN ('activating', 'invalid');
