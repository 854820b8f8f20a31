-- The stored answers of mutations (issue 25, docs/protocol.md "Retries"): a retry with the same
-- sequence answers the first call's envelope. Logged on purpose: a committed mutation keeps its answer.
CREATE TABLE "idempotent_calls" (
	"key" text PRIMARY KEY NOT NULL,
	"request_hash" text NOT NULL,
	"code" integer,
	"answer" text,
	"expires_at" bigint NOT NULL
);
