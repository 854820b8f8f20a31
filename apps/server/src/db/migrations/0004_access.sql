CREATE TABLE "dev_outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"target" text NOT NULL,
	"purpose" text NOT NULL,
	"code" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_bindings" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"account_id" text NOT NULL,
	"provider" text NOT NULL,
	"provider_user_id" text NOT NULL,
	"nickname" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_bindings_provider_check" CHECK ("oauth_bindings"."provider" in ('wechat', 'dingtalk'))
);
--> statement-breakpoint
CREATE TABLE "oauth_states" (
	"id" text PRIMARY KEY NOT NULL,
	"state_hash" text NOT NULL,
	"provider" text NOT NULL,
	"purpose" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"ent_id" text,
	"account_id" text,
	"provider_user_id" text,
	"nickname" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"ip" text,
	CONSTRAINT "oauth_states_provider_check" CHECK ("oauth_states"."provider" in ('wechat', 'dingtalk')),
	CONSTRAINT "oauth_states_purpose_check" CHECK ("oauth_states"."purpose" in ('login', 'bind')),
	CONSTRAINT "oauth_states_status_check" CHECK ("oauth_states"."status" in ('pending', 'ready', 'unbound', 'scanned', 'conflict', 'failed', 'used'))
);
--> statement-breakpoint
CREATE TABLE "verification_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"channel" text NOT NULL,
	"target" text NOT NULL,
	"account_id" text,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"ip" text,
	CONSTRAINT "verification_codes_purpose_check" CHECK ("verification_codes"."purpose" in ('login', 'register', 'reset_password', 'bind_phone')),
	CONSTRAINT "verification_codes_channel_check" CHECK ("verification_codes"."channel" in ('sms', 'email'))
);
--> statement-breakpoint
ALTER TABLE "oauth_bindings" ADD CONSTRAINT "oauth_bindings_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_bindings" ADD CONSTRAINT "oauth_bindings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD CONSTRAINT "oauth_states_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD CONSTRAINT "oauth_states_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_codes" ADD CONSTRAINT "verification_codes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dev_outbox_created_idx" ON "dev_outbox" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "dev_outbox_target_idx" ON "dev_outbox" USING btree ("target","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_bindings_identity_key" ON "oauth_bindings" USING btree ("provider","provider_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_bindings_account_key" ON "oauth_bindings" USING btree ("account_id","provider");--> statement-breakpoint
CREATE INDEX "oauth_bindings_ent_account_idx" ON "oauth_bindings" USING btree ("ent_id","account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_states_state_hash_key" ON "oauth_states" USING btree ("state_hash");--> statement-breakpoint
CREATE INDEX "oauth_states_expires_idx" ON "oauth_states" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "verification_codes_target_idx" ON "verification_codes" USING btree ("purpose","target","created_at");