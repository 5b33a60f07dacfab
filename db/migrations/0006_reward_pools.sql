CREATE TABLE "reward_grant" (
	"pool_id" text NOT NULL,
	"user_id" text NOT NULL,
	"position" integer NOT NULL,
	"amount" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reward_grant_pool_id_user_id_pk" PRIMARY KEY("pool_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "reward_pool" (
	"id" text PRIMARY KEY NOT NULL,
	"campaign_id" text NOT NULL,
	"kind" text DEFAULT 'xp' NOT NULL,
	"distribution" text NOT NULL,
	"winners" integer,
	"amount" integer,
	"rank_amounts" jsonb,
	"seed" text,
	"status" text DEFAULT 'open' NOT NULL,
	"created_by" text,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reward_pool_shape" CHECK (("reward_pool"."distribution" in ('fcfs', 'raffle') and "reward_pool"."winners" > 0 and "reward_pool"."amount" > 0)
        or ("reward_pool"."distribution" = 'ranking' and "reward_pool"."winners" > 0 and "reward_pool"."rank_amounts" is not null)
        or ("reward_pool"."distribution" = 'everyone' and "reward_pool"."winners" is null and "reward_pool"."amount" > 0))
);
--> statement-breakpoint
ALTER TABLE "reward_grant" ADD CONSTRAINT "reward_grant_pool_id_reward_pool_id_fk" FOREIGN KEY ("pool_id") REFERENCES "public"."reward_pool"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_grant" ADD CONSTRAINT "reward_grant_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_pool" ADD CONSTRAINT "reward_pool_campaign_id_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaign"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_pool" ADD CONSTRAINT "reward_pool_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reward_grant_position_key" ON "reward_grant" USING btree ("pool_id","position");--> statement-breakpoint
CREATE INDEX "reward_grant_user_idx" ON "reward_grant" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "reward_pool_campaign_idx" ON "reward_pool" USING btree ("campaign_id","created_at");--> statement-breakpoint
CREATE INDEX "reward_pool_status_idx" ON "reward_pool" USING btree ("status");