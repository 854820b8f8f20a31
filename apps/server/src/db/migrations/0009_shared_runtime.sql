-- Hand-edited: both tables are UNLOGGED (no WAL: the replay insert on every call stays cheap).
-- A PostgreSQL crash empties them, which only forgets replay keys and throttle counts of the
-- last minutes; a clean restart keeps them.
CREATE UNLOGGED TABLE "replay_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE UNLOGGED TABLE "throttle_events" (
	"bucket" text NOT NULL,
	"key" text NOT NULL,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "throttle_events_lookup" ON "throttle_events" USING btree ("bucket","key","at");--> statement-breakpoint
CREATE INDEX "throttle_events_at" ON "throttle_events" USING btree ("at");