CREATE TABLE "chain_event_cursor" (
	"chain_id" integer NOT NULL,
	"subscription" text NOT NULL,
	"address" text NOT NULL,
	"next_block" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_event_cursor_chain_id_subscription_pk" PRIMARY KEY("chain_id","subscription")
);
--> statement-breakpoint
INSERT INTO "chain_event_cursor" ("chain_id", "subscription", "address", "next_block", "updated_at")
  SELECT "chain_id", 'deposits', "vault", "next_block", "updated_at" FROM "deposit_cursor";--> statement-breakpoint
INSERT INTO "chain_event_cursor" ("chain_id", "subscription", "address", "next_block", "updated_at")
  SELECT "chain_id", 'claims', "distributor", "next_block", "updated_at" FROM "airdrop_claim_cursor";--> statement-breakpoint
DROP TABLE "airdrop_claim_cursor" CASCADE;--> statement-breakpoint
DROP TABLE "deposit_cursor" CASCADE;
