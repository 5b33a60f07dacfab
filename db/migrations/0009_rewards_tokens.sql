CREATE TABLE "project_deposit_reference" (
	"project_id" text PRIMARY KEY NOT NULL,
	"ref" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "raffle_entrant" (
	"pool_id" text NOT NULL,
	"position" integer NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "raffle_entrant_pool_id_position_pk" PRIMARY KEY("pool_id","position")
);
--> statement-breakpoint
ALTER TABLE "ledger_account" DROP CONSTRAINT "ledger_account_member_names";--> statement-breakpoint
DROP INDEX "reward_grant_user_idx";--> statement-breakpoint
ALTER TABLE "reward_grant" ALTER COLUMN "amount" SET DATA TYPE numeric(78, 0);--> statement-breakpoint
ALTER TABLE "reward_pool" ALTER COLUMN "amount" SET DATA TYPE numeric(78, 0);--> statement-breakpoint
ALTER TABLE "deposit" ADD COLUMN "project_id" text;--> statement-breakpoint
ALTER TABLE "reward_grant" ADD COLUMN "entry_id" bigint;--> statement-breakpoint
ALTER TABLE "reward_pool" ADD COLUMN "asset" text;--> statement-breakpoint
ALTER TABLE "reward_pool" ADD COLUMN "escrowed" numeric(78, 0) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reward_pool" ADD COLUMN "escrow_moves" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reward_pool" ADD COLUMN "returned" numeric(78, 0) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reward_pool" ADD COLUMN "commitment" text;--> statement-breakpoint
ALTER TABLE "reward_pool" ADD COLUMN "secret" text;--> statement-breakpoint
ALTER TABLE "reward_pool" ADD COLUMN "entrants_hash" text;--> statement-breakpoint
ALTER TABLE "reward_pool" ADD COLUMN "entrants_count" integer;--> statement-breakpoint
ALTER TABLE "reward_pool" ADD COLUMN "draw_chain_id" integer;--> statement-breakpoint
ALTER TABLE "reward_pool" ADD COLUMN "draw_block" bigint;--> statement-breakpoint
ALTER TABLE "reward_pool" ADD COLUMN "draw_block_hash" text;--> statement-breakpoint
ALTER TABLE "project_deposit_reference" ADD CONSTRAINT "project_deposit_reference_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "raffle_entrant" ADD CONSTRAINT "raffle_entrant_pool_id_reward_pool_id_fk" FOREIGN KEY ("pool_id") REFERENCES "public"."reward_pool"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "project_deposit_reference_ref_key" ON "project_deposit_reference" USING btree ("ref");--> statement-breakpoint
ALTER TABLE "deposit" ADD CONSTRAINT "deposit_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reward_grant_user_idx" ON "reward_grant" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "ledger_account" ADD CONSTRAINT "ledger_account_member_names" CHECK (("ledger_account"."holder" = 'platform' or "ledger_account"."holder" like 'project:%' or "ledger_account"."holder" like 'pool:%') = ("ledger_account"."name" not in ('available', 'held')));--> statement-breakpoint
ALTER TABLE "reward_pool" ADD CONSTRAINT "reward_pool_asset" CHECK (("reward_pool"."kind" = 'token') = ("reward_pool"."asset" is not null));--> statement-breakpoint
-- Ranking amounts become decimal strings (token base units do not fit a JSON number).
UPDATE "reward_pool" SET "rank_amounts" = (SELECT jsonb_agg(to_jsonb(v #>> '{}')) FROM jsonb_array_elements("rank_amounts") v) WHERE "rank_amounts" IS NOT NULL;
