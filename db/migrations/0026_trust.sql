CREATE TABLE "access_context" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"network_hash" text NOT NULL,
	"agent_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exclusion_appeal" (
	"id" text PRIMARY KEY NOT NULL,
	"exclusion_id" text NOT NULL,
	"user_id" text NOT NULL,
	"message" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"answer" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_exclusion" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"scope" text NOT NULL,
	"scope_id" text NOT NULL,
	"user_id" text NOT NULL,
	"reason" text NOT NULL,
	"cluster_id" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lifted_at" timestamp with time zone,
	"lifted_by" text,
	"lift_reason" text
);
--> statement-breakpoint
CREATE TABLE "trust_audit" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"actor_id" text,
	"action" text NOT NULL,
	"subject_id" text,
	"cluster_id" text,
	"scope" text,
	"scope_id" text,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trust_cluster" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"size" integer NOT NULL,
	"summary" text NOT NULL,
	"evidence" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trust_cluster_member" (
	"cluster_id" text NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "trust_cluster_member_cluster_id_user_id_pk" PRIMARY KEY("cluster_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "trust_score" (
	"user_id" text PRIMARY KEY NOT NULL,
	"score" integer NOT NULL,
	"flagged" boolean DEFAULT false NOT NULL,
	"reasons" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_profile" (
	"address" text NOT NULL,
	"chain_id" integer NOT NULL,
	"status" text NOT NULL,
	"unknown_reason" text,
	"funder" text,
	"funding_tx" text,
	"funded_block" bigint,
	"funded_at" timestamp with time zone,
	"swept_to" text,
	"sweep_tx" text,
	"first_activity_at" timestamp with time zone,
	"tx_count" integer,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_profile_address_chain_id_pk" PRIMARY KEY("address","chain_id")
);
--> statement-breakpoint
ALTER TABLE "airdrop" ADD COLUMN "gate" jsonb;--> statement-breakpoint
ALTER TABLE "airdrop" ADD COLUMN "excluded_counts" jsonb;--> statement-breakpoint
ALTER TABLE "campaign" ADD COLUMN "gate" jsonb;--> statement-breakpoint
ALTER TABLE "reward_pool" ADD COLUMN "gate" jsonb;--> statement-breakpoint
ALTER TABLE "reward_pool" ADD COLUMN "excluded_counts" jsonb;--> statement-breakpoint
ALTER TABLE "social_account" ADD COLUMN "account_created_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "social_account" ADD COLUMN "followers" integer;--> statement-breakpoint
ALTER TABLE "access_context" ADD CONSTRAINT "access_context_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exclusion_appeal" ADD CONSTRAINT "exclusion_appeal_exclusion_id_member_exclusion_id_fk" FOREIGN KEY ("exclusion_id") REFERENCES "public"."member_exclusion"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exclusion_appeal" ADD CONSTRAINT "exclusion_appeal_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exclusion_appeal" ADD CONSTRAINT "exclusion_appeal_decided_by_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_exclusion" ADD CONSTRAINT "member_exclusion_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_exclusion" ADD CONSTRAINT "member_exclusion_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_exclusion" ADD CONSTRAINT "member_exclusion_cluster_id_trust_cluster_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."trust_cluster"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_exclusion" ADD CONSTRAINT "member_exclusion_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_exclusion" ADD CONSTRAINT "member_exclusion_lifted_by_user_id_fk" FOREIGN KEY ("lifted_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trust_audit" ADD CONSTRAINT "trust_audit_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trust_audit" ADD CONSTRAINT "trust_audit_actor_id_user_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trust_audit" ADD CONSTRAINT "trust_audit_subject_id_user_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trust_cluster_member" ADD CONSTRAINT "trust_cluster_member_cluster_id_trust_cluster_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."trust_cluster"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trust_cluster_member" ADD CONSTRAINT "trust_cluster_member_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trust_score" ADD CONSTRAINT "trust_score_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "access_context_network_idx" ON "access_context" USING btree ("network_hash","created_at");--> statement-breakpoint
CREATE INDEX "access_context_user_idx" ON "access_context" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "access_context_created_idx" ON "access_context" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "exclusion_appeal_one_pending" ON "exclusion_appeal" USING btree ("exclusion_id") WHERE "exclusion_appeal"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "exclusion_appeal_user_idx" ON "exclusion_appeal" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "member_exclusion_live_key" ON "member_exclusion" USING btree ("scope","scope_id","user_id") WHERE "member_exclusion"."lifted_at" is null;--> statement-breakpoint
CREATE INDEX "member_exclusion_user_idx" ON "member_exclusion" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "member_exclusion_project_idx" ON "member_exclusion" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "trust_audit_project_idx" ON "trust_audit" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "trust_cluster_kind_key" ON "trust_cluster" USING btree ("kind","key");--> statement-breakpoint
CREATE INDEX "trust_cluster_member_user_idx" ON "trust_cluster_member" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "trust_score_flagged_idx" ON "trust_score" USING btree ("flagged","score");--> statement-breakpoint
CREATE INDEX "wallet_profile_funder_idx" ON "wallet_profile" USING btree ("funder");--> statement-breakpoint
CREATE INDEX "wallet_profile_swept_idx" ON "wallet_profile" USING btree ("swept_to");