CREATE TABLE "airdrop" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"asset" text NOT NULL,
	"rule" text NOT NULL,
	"total" numeric(78, 0) NOT NULL,
	"rank_amounts" jsonb,
	"min_points" integer DEFAULT 0 NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"claim_deadline" timestamp with time zone NOT NULL,
	"published_at" timestamp with time zone,
	"status" text DEFAULT 'open' NOT NULL,
	"frozen_at" timestamp with time zone,
	"root" text,
	"leaves" integer,
	"claimable" numeric(78, 0),
	"unclaimable" numeric(78, 0),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "airdrop_allocation" (
	"airdrop_id" text NOT NULL,
	"user_id" text NOT NULL,
	"rank" integer NOT NULL,
	"points" integer NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"account" text,
	"leaf" integer,
	CONSTRAINT "airdrop_allocation_airdrop_id_user_id_pk" PRIMARY KEY("airdrop_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "airdrop_tree_chunk" (
	"airdrop_id" text NOT NULL,
	"level" integer NOT NULL,
	"chunk" integer NOT NULL,
	"hashes" "bytea" NOT NULL,
	CONSTRAINT "airdrop_tree_chunk_airdrop_id_level_chunk_pk" PRIMARY KEY("airdrop_id","level","chunk")
);
--> statement-breakpoint
ALTER TABLE "airdrop" ADD CONSTRAINT "airdrop_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "airdrop_allocation" ADD CONSTRAINT "airdrop_allocation_airdrop_id_airdrop_id_fk" FOREIGN KEY ("airdrop_id") REFERENCES "public"."airdrop"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "airdrop_allocation" ADD CONSTRAINT "airdrop_allocation_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "airdrop_tree_chunk" ADD CONSTRAINT "airdrop_tree_chunk_airdrop_id_airdrop_id_fk" FOREIGN KEY ("airdrop_id") REFERENCES "public"."airdrop"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "airdrop_project_slug_key" ON "airdrop" USING btree ("project_id","slug");--> statement-breakpoint
CREATE INDEX "airdrop_status_ends_idx" ON "airdrop" USING btree ("status","ends_at");--> statement-breakpoint
CREATE UNIQUE INDEX "airdrop_allocation_leaf_key" ON "airdrop_allocation" USING btree ("airdrop_id","leaf");--> statement-breakpoint
-- A proof reads one 32-byte hash from a chunk: kept uncompressed so the read slices it instead of inflating 128 KiB.
ALTER TABLE "airdrop_tree_chunk" ALTER COLUMN "hashes" SET STORAGE EXTERNAL;
