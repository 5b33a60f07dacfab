ALTER TABLE "raffle_entrant" ADD COLUMN "entrant_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "raffle_entrant_entrant_key" ON "raffle_entrant" USING btree ("pool_id","entrant_id");