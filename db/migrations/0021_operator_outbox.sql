CREATE TABLE "operator_tx" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"intent_key" text NOT NULL,
	"chain_id" integer NOT NULL,
	"genesis_hash" text NOT NULL,
	"signer" text NOT NULL,
	"to_address" text NOT NULL,
	"data" text NOT NULL,
	"value" numeric(78, 0) DEFAULT 0 NOT NULL,
	"nonce" integer NOT NULL,
	"raw_tx" text NOT NULL,
	"tx_hash" text NOT NULL,
	"earlier_hashes" text[] DEFAULT '{}'::text[] NOT NULL,
	"state" text DEFAULT 'stored' NOT NULL,
	"failure" text,
	"from_block" bigint NOT NULL,
	"included_block" bigint,
	"bumps" integer DEFAULT 0 NOT NULL,
	"broadcast_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "operator_tx_intent_key" ON "operator_tx" USING btree ("intent_key");--> statement-breakpoint
CREATE INDEX "operator_tx_live_idx" ON "operator_tx" USING btree ("chain_id","signer","nonce") WHERE "operator_tx"."state" in ('stored', 'broadcast', 'included');--> statement-breakpoint
-- Transactions signed before the outbox existed and still in flight move into it. Their signer and
-- genesis are not known here (''): the outbox adopts them for the chain's operator and current
-- genesis the first time it follows that chain (operator-outbox.server.ts, adoptEarlierRows).
INSERT INTO "operator_tx" ("intent_key", "chain_id", "genesis_hash", "signer", "to_address", "data", "nonce", "raw_tx", "tx_hash", "state", "from_block", "broadcast_at")
  SELECT 'withdrawal:' || "id" || ':' || "attempts", "chain_id", '', '', '', '', "nonce", "raw_tx", "tx_hash",
         CASE WHEN "status" = 'sent' THEN 'broadcast' ELSE 'stored' END, 0, "sent_at"
  FROM "withdrawal" WHERE "status" IN ('sending', 'sent') AND "raw_tx" IS NOT NULL;--> statement-breakpoint
INSERT INTO "operator_tx" ("intent_key", "chain_id", "genesis_hash", "signer", "to_address", "data", "nonce", "raw_tx", "tx_hash", "state", "from_block", "broadcast_at")
  SELECT 'airdrop-round:' || "airdrop_id" || ':' || "step" || ':1', "chain_id", '', '', '', '', "nonce", "raw_tx", "tx_hash",
         CASE WHEN "sent_at" IS NULL THEN 'stored' ELSE 'broadcast' END, coalesce("from_block", 0), "sent_at"
  FROM "airdrop_round" WHERE "raw_tx" IS NOT NULL AND "tx_hash" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "airdrop_round" DROP COLUMN "raw_tx";--> statement-breakpoint
ALTER TABLE "withdrawal" DROP COLUMN "raw_tx";