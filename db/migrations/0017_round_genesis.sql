DROP INDEX "airdrop_round_chain_round_key";--> statement-breakpoint
ALTER TABLE "airdrop_round" ADD COLUMN "genesis_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "airdrop_round_chain_round_key" ON "airdrop_round" USING btree ("chain_id","genesis_hash","distributor","round_id");