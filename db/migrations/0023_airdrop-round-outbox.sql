ALTER TABLE "airdrop_round" ADD COLUMN "attempt" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A round's current step: how many of its transactions the outbox holds (signed as `…:<step>:1`, `:2`, …).
UPDATE "airdrop_round" AS "r" SET "attempt" = (
  SELECT count(*) FROM "operator_tx" AS "t"
  WHERE starts_with("t"."intent_key", 'airdrop-round:' || "r"."airdrop_id" || ':' || "r"."step" || ':')
);
