CREATE TABLE "help_categories" (
	"id" text PRIMARY KEY NOT NULL,
	"names" jsonb NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "help_doc_versions" (
	"doc_id" text NOT NULL,
	"language" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"text" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "help_doc_versions_doc_id_language_pk" PRIMARY KEY("doc_id","language")
);
--> statement-breakpoint
CREATE TABLE "help_docs" (
	"id" text PRIMARY KEY NOT NULL,
	"category_id" text NOT NULL,
	"state" text DEFAULT 'draft' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_by" text,
	"updated_by" text,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "help_images" (
	"id" text PRIMARY KEY NOT NULL,
	"ent_id" text NOT NULL,
	"author_id" text NOT NULL,
	"key" text NOT NULL,
	"content_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "help_doc_versions" ADD CONSTRAINT "help_doc_versions_doc_id_help_docs_id_fk" FOREIGN KEY ("doc_id") REFERENCES "public"."help_docs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_docs" ADD CONSTRAINT "help_docs_category_id_help_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."help_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_docs" ADD CONSTRAINT "help_docs_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_docs" ADD CONSTRAINT "help_docs_updated_by_accounts_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_images" ADD CONSTRAINT "help_images_ent_id_enterprises_id_fk" FOREIGN KEY ("ent_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_images" ADD CONSTRAINT "help_images_author_id_accounts_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "help_docs_category_idx" ON "help_docs" USING btree ("category_id","sort");--> statement-breakpoint
CREATE INDEX "help_images_author_idx" ON "help_images" USING btree ("author_id");