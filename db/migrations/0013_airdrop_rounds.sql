CREATE TABLE "airdrop_claim" (
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"airdrop_id" text NOT NULL,
	"leaf" integer NOT NULL,
	"account" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "airdrop_claim_chain_id_tx_hash_log_index_pk" PRIMARY KEY("chain_id","tx_hash","log_index")
);
--> statement-breakpoint
CREATE TABLE "airdrop_claim_cursor" (
	"chain_id" integer PRIMARY KEY NOT NULL,
	"distributor" text NOT NULL,
	"next_block" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "airdrop_round" (
	"airdrop_id" text PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"distributor" text NOT NULL,
	"funding_id" text NOT NULL,
	"total" numeric(78, 0) NOT NULL,
	"deadline" bigint NOT NULL,
	"step" text DEFAULT 'funding' NOT NULL,
	"round_id" bigint,
	"tx_hash" text,
	"raw_tx" text,
	"nonce" integer,
	"from_block" bigint,
	"sent_at" timestamp with time zone,
	"open_tx_hash" text,
	"opened_at" timestamp with time zone,
	"sweep_requested_at" timestamp with time zone,
	"sweep_requested_by" text,
	"sweep_tx_hash" text,
	"swept" numeric(78, 0),
	"swept_at" timestamp with time zone,
	"failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_account" DROP CONSTRAINT "ledger_account_member_names";--> statement-breakpoint
ALTER TABLE "airdrop" ADD COLUMN "escrowed" numeric(78, 0) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "airdrop" ADD COLUMN "escrow_moves" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "airdrop_claim" ADD CONSTRAINT "airdrop_claim_airdrop_id_airdrop_id_fk" FOREIGN KEY ("airdrop_id") REFERENCES "public"."airdrop"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "airdrop_round" ADD CONSTRAINT "airdrop_round_airdrop_id_airdrop_id_fk" FOREIGN KEY ("airdrop_id") REFERENCES "public"."airdrop"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "airdrop_claim_leaf_key" ON "airdrop_claim" USING btree ("airdrop_id","leaf");--> statement-breakpoint
CREATE UNIQUE INDEX "airdrop_round_chain_round_key" ON "airdrop_round" USING btree ("chain_id","distributor","round_id");--> statement-breakpoint
CREATE INDEX "airdrop_round_step_idx" ON "airdrop_round" USING btree ("step");--> statement-breakpoint
ALTER TABLE "ledger_account" ADD CONSTRAINT "ledger_account_member_names" CHECK (("ledger_account"."holder" = 'platform' or "ledger_account"."holder" like 'project:%' or "ledger_account"."holder" like 'pool:%' or "ledger_account"."holder" like 'airdrop:%') = ("ledger_account"."name" not in ('available', 'held')));