CREATE TABLE "template_dept_counts" (
	"ent_id" text NOT NULL,
	"dept_id" text NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "template_dept_counts_ent_id_dept_id_pk" PRIMARY KEY("ent_id","dept_id")
);
