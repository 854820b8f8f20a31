CREATE SEQUENCE "public"."ad_number_seq" INCREMENT BY 1 MINVALUE 100000000 MAXVALUE 999999999 START WITH 100000001 CACHE 1;--> statement-breakpoint
CREATE TABLE "ad_reviews" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"ad_id" text NOT NULL,
	"round" integer NOT NULL,
	"stage" text NOT NULL,
	"decision" text NOT NULL,
	"reason" text,
	"auditor_id" text,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ad_reviews_stage_check" CHECK ("ad_reviews"."stage" in ('first', 'second')),
	CONSTRAINT "ad_reviews_decision_check" CHECK ("ad_reviews"."decision" in ('pass', 'fail'))
);
--> statement-breakpoint
CREATE TABLE "ads" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"number" integer DEFAULT nextval('ad_number_seq') NOT NULL,
	"dept_id" text,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"source" text DEFAULT 'console' NOT NULL,
	"plan_id" text NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"strategy" text NOT NULL,
	"plays_min" integer NOT NULL,
	"plays_max" integer NOT NULL,
	"periods" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"slot_id" text,
	"link" text DEFAULT '' NOT NULL,
	"monitor_url" text,
	"material_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"layout_id" text,
	"targets" jsonb NOT NULL,
	"review_state" text DEFAULT 'pending' NOT NULL,
	"review_round" integer DEFAULT 1 NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"downloaded_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ads_type_check" CHECK ("ads"."type" in ('common', 'emergency', 'interstitial', 'fallback', 'opening')),
	CONSTRAINT "ads_review_state_check" CHECK ("ads"."review_state" in ('pending', 'pendingSecond', 'passed', 'failed')),
	CONSTRAINT "ads_strategy_check" CHECK ("ads"."strategy" in ('perDay', 'perLoop')),
	CONSTRAINT "ads_plays_check" CHECK ("ads"."plays_min" between 1 and 99999 and "ads"."plays_max" between 1 and 99999 and "ads"."plays_min" <= "ads"."plays_max"),
	CONSTRAINT "ads_period_check" CHECK ("ads"."end_at" > "ads"."start_at")
);
--> statement-breakpoint
CREATE TABLE "promotion_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"dept_id" text,
	"owner_id" text,
	"name" text NOT NULL,
	"budget_cents" bigint,
	"start_date" date,
	"end_date" date,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promotion_plans_budget_check" CHECK ("promotion_plans"."budget_cents" is null or "promotion_plans"."budget_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "require_second_audit" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ad_reviews" ADD CONSTRAINT "ad_reviews_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_reviews" ADD CONSTRAINT "ad_reviews_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_reviews" ADD CONSTRAINT "ad_reviews_auditor_id_accounts_id_fk" FOREIGN KEY ("auditor_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_dept_id_departments_id_fk" FOREIGN KEY ("dept_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_plan_id_promotion_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."promotion_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_plans" ADD CONSTRAINT "promotion_plans_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_plans" ADD CONSTRAINT "promotion_plans_dept_id_departments_id_fk" FOREIGN KEY ("dept_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_plans" ADD CONSTRAINT "promotion_plans_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ad_reviews_ad_round_stage_key" ON "ad_reviews" USING btree ("ad_id","round","stage");--> statement-breakpoint
CREATE UNIQUE INDEX "ads_number_key" ON "ads" USING btree ("number");--> statement-breakpoint
CREATE INDEX "ads_ent_created_idx" ON "ads" USING btree ("ent_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "ads_ent_plan_idx" ON "ads" USING btree ("ent_id","plan_id");--> statement-breakpoint
CREATE INDEX "ads_material_ids_idx" ON "ads" USING gin ("material_ids");--> statement-breakpoint
CREATE INDEX "ads_ent_layout_idx" ON "ads" USING btree ("ent_id","layout_id");--> statement-breakpoint
CREATE UNIQUE INDEX "promotion_plans_ent_default_key" ON "promotion_plans" USING btree ("ent_id") WHERE "promotion_plans"."is_default";--> statement-breakpoint
CREATE INDEX "promotion_plans_ent_created_idx" ON "promotion_plans" USING btree ("ent_id","created_at" DESC NULLS LAST,"id");