CREATE TABLE "feedback_shots" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"author_id" text NOT NULL,
	"feedback_id" text,
	"key" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feedbacks" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"author_id" text NOT NULL,
	"category" text NOT NULL,
	"content" text NOT NULL,
	"state" text DEFAULT 'submitted' NOT NULL,
	"reply" text,
	"replied_by" text,
	"replied_at" timestamp with time zone,
	"closed_by" text,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "feedback_shots" ADD CONSTRAINT "feedback_shots_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback_shots" ADD CONSTRAINT "feedback_shots_author_id_accounts_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback_shots" ADD CONSTRAINT "feedback_shots_feedback_id_feedbacks_id_fk" FOREIGN KEY ("feedback_id") REFERENCES "public"."feedbacks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedbacks" ADD CONSTRAINT "feedbacks_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedbacks" ADD CONSTRAINT "feedbacks_author_id_accounts_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedbacks" ADD CONSTRAINT "feedbacks_replied_by_accounts_id_fk" FOREIGN KEY ("replied_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedbacks" ADD CONSTRAINT "feedbacks_closed_by_accounts_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "feedback_shots_feedback_idx" ON "feedback_shots" USING btree ("feedback_id");--> statement-breakpoint
CREATE INDEX "feedback_shots_author_idx" ON "feedback_shots" USING btree ("author_id");--> statement-breakpoint
CREATE INDEX "feedbacks_author_created_idx" ON "feedbacks" USING btree ("author_id","created_at");--> statement-breakpoint
CREATE INDEX "feedbacks_state_created_idx" ON "feedbacks" USING btree ("state","created_at");