-- The ledger (issue 26): entries are numbered from one sequence (a bank statement's line
-- order per account: the account row lock serialises its lines); payment order numbers from another.
CREATE SEQUENCE IF NOT EXISTS "ledger_entry_seq";--> statement-breakpoint
CREATE SEQUENCE IF NOT EXISTS "pay_order_no_seq";--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"wallet_id" text NOT NULL,
	"ent_id" text NOT NULL,
	"title" text NOT NULL,
	"tax_no" text NOT NULL,
	"amount" bigint NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"state" text NOT NULL,
	"invoice_no" text DEFAULT '' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"requested_by" text NOT NULL,
	"reviewed_by" text,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_amount_check" CHECK ("invoices"."amount" > 0),
	CONSTRAINT "invoices_state_check" CHECK ("invoices"."state" in ('requested', 'issued', 'refused'))
);
--> statement-breakpoint
CREATE TABLE "ledger_account_months" (
	"account_id" text NOT NULL,
	"month" text NOT NULL,
	"credits" bigint NOT NULL,
	"debits" bigint NOT NULL,
	"closing" bigint NOT NULL,
	"movements" bigint NOT NULL,
	CONSTRAINT "ledger_account_months_account_id_month_pk" PRIMARY KEY("account_id","month")
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"platform_key" text,
	"ent_id" text,
	"account_id" text,
	"no_overdraft" boolean NOT NULL,
	"debits_pending" bigint DEFAULT 0 NOT NULL,
	"debits_posted" bigint DEFAULT 0 NOT NULL,
	"credits_pending" bigint DEFAULT 0 NOT NULL,
	"credits_posted" bigint DEFAULT 0 NOT NULL,
	"low_balance_threshold" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_kind_check" CHECK ("ledger_accounts"."kind" in ('enterprise', 'advertiser', 'platform')),
	CONSTRAINT "ledger_accounts_counters_check" CHECK ("ledger_accounts"."debits_pending" >= 0 and "ledger_accounts"."debits_posted" >= 0 and "ledger_accounts"."credits_pending" >= 0 and "ledger_accounts"."credits_posted" >= 0),
	CONSTRAINT "ledger_accounts_no_overdraft_check" CHECK (not "ledger_accounts"."no_overdraft" or "ledger_accounts"."debits_posted" + "ledger_accounts"."debits_pending" <= "ledger_accounts"."credits_posted")
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"account_id" text NOT NULL,
	"seq" bigint DEFAULT nextval('ledger_entry_seq') NOT NULL,
	"transfer_id" text NOT NULL,
	"counterparty_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"pending_change" bigint NOT NULL,
	"balance" bigint NOT NULL,
	"frozen" bigint NOT NULL,
	"code" text NOT NULL,
	"cause_type" text NOT NULL,
	"cause_id" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ledger_entries_account_id_seq_pk" PRIMARY KEY("account_id","seq")
);
--> statement-breakpoint
CREATE TABLE "ledger_transfers" (
	"id" text PRIMARY KEY NOT NULL,
	"debit_account_id" text NOT NULL,
	"credit_account_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"phase" text NOT NULL,
	"pending_id" text,
	"state" text,
	"timeout_at" timestamp with time zone,
	"code" text NOT NULL,
	"cause_type" text NOT NULL,
	"cause_id" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"actor_id" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ledger_transfers_amount_check" CHECK ("ledger_transfers"."amount" > 0),
	CONSTRAINT "ledger_transfers_accounts_check" CHECK ("ledger_transfers"."debit_account_id" <> "ledger_transfers"."credit_account_id"),
	CONSTRAINT "ledger_transfers_phase_check" CHECK ("ledger_transfers"."phase" in ('single', 'pending', 'post', 'void', 'expire'))
);
--> statement-breakpoint
CREATE TABLE "offline_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"ent_id" text NOT NULL,
	"payer_name" text NOT NULL,
	"bank_name" text DEFAULT '' NOT NULL,
	"bank_account" text DEFAULT '' NOT NULL,
	"transfer_no" text NOT NULL,
	"transferred_at" timestamp with time zone NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"state" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"submitted_by" text NOT NULL,
	"reviewed_by" text,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pay_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"provider" text NOT NULL,
	"out_trade_no" text NOT NULL,
	"state" text NOT NULL,
	"amount" bigint NOT NULL,
	"qr_code" text,
	"redirect_url" text,
	"provider_trade_no" text,
	"expires_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pay_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"no" text NOT NULL,
	"purpose" text NOT NULL,
	"title" text NOT NULL,
	"amount" bigint NOT NULL,
	"state" text NOT NULL,
	"method" text,
	"wallet_id" text NOT NULL,
	"ent_id" text NOT NULL,
	"created_by" text NOT NULL,
	"expires_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"provider_trade_no" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pay_orders_amount_check" CHECK ("pay_orders"."amount" > 0),
	CONSTRAINT "pay_orders_state_check" CHECK ("pay_orders"."state" in ('unpaid', 'review', 'paid', 'closed'))
);
--> statement-breakpoint
CREATE TABLE "pay_vouchers" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"file_key" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"offline_id" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_wallet_id_ledger_accounts_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_debit_account_id_ledger_accounts_id_fk" FOREIGN KEY ("debit_account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_credit_account_id_ledger_accounts_id_fk" FOREIGN KEY ("credit_account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offline_payments" ADD CONSTRAINT "offline_payments_order_id_pay_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."pay_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_attempts" ADD CONSTRAINT "pay_attempts_order_id_pay_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."pay_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_orders" ADD CONSTRAINT "pay_orders_wallet_id_ledger_accounts_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_orders" ADD CONSTRAINT "pay_orders_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_orders" ADD CONSTRAINT "pay_orders_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_vouchers" ADD CONSTRAINT "pay_vouchers_order_id_pay_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."pay_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_wallet_created_idx" ON "invoices" USING btree ("wallet_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "invoices_state_created_idx" ON "invoices" USING btree ("state","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_platform_key" ON "ledger_accounts" USING btree ("platform_key");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_enterprise_key" ON "ledger_accounts" USING btree ("ent_id") WHERE "ledger_accounts"."kind" = 'enterprise';--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_advertiser_key" ON "ledger_accounts" USING btree ("account_id") WHERE "ledger_accounts"."kind" = 'advertiser';--> statement-breakpoint
CREATE INDEX "ledger_entries_account_time_idx" ON "ledger_entries" USING btree ("account_id","created_at" DESC NULLS LAST,"seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ledger_transfers_cause_idx" ON "ledger_transfers" USING btree ("cause_type","cause_id");--> statement-breakpoint
CREATE INDEX "ledger_transfers_timeout_idx" ON "ledger_transfers" USING btree ("timeout_at") WHERE "ledger_transfers"."state" = 'pending' and "ledger_transfers"."timeout_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transfers_settles_key" ON "ledger_transfers" USING btree ("pending_id") WHERE "ledger_transfers"."pending_id" is not null;--> statement-breakpoint
CREATE INDEX "offline_payments_order_idx" ON "offline_payments" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "offline_payments_state_created_idx" ON "offline_payments" USING btree ("state","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "offline_payments_ent_created_idx" ON "offline_payments" USING btree ("ent_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "pay_attempts_out_trade_no_key" ON "pay_attempts" USING btree ("out_trade_no");--> statement-breakpoint
CREATE INDEX "pay_attempts_order_idx" ON "pay_attempts" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "pay_attempts_open_idx" ON "pay_attempts" USING btree ("created_at") WHERE "pay_attempts"."state" = 'created';--> statement-breakpoint
CREATE UNIQUE INDEX "pay_orders_no_key" ON "pay_orders" USING btree ("no");--> statement-breakpoint
CREATE INDEX "pay_orders_wallet_created_idx" ON "pay_orders" USING btree ("wallet_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "pay_orders_created_idx" ON "pay_orders" USING btree ("created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "pay_orders_unpaid_expiry_idx" ON "pay_orders" USING btree ("expires_at") WHERE "pay_orders"."state" = 'unpaid' and "pay_orders"."expires_at" is not null;--> statement-breakpoint
CREATE INDEX "pay_vouchers_order_idx" ON "pay_vouchers" USING btree ("order_id");