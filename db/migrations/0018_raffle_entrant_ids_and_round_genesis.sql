DROP INDEX "airdrop_round_chain_round_key";--> statement-breakpoint
ALTER TABLE "airdrop_round" ADD COLUMN "genesis_hash" text;--> statement-breakpoint
ALTER TABLE "raffle_entrant" ADD COLUMN "entrant_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "raffle_entrant_entrant_key" ON "raffle_entrant" USING btree ("pool_id","entrant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "airdrop_round_chain_round_key" ON "airdrop_round" USING btree ("chain_id","genesis_hash","distributor","round_id");