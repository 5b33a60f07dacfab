CREATE TABLE "discord_role_grant" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "discord_role_grant_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"reward_id" text NOT NULL,
	"project_id" text NOT NULL,
	"user_id" text NOT NULL,
	"discord_user_id" text NOT NULL,
	"guild_id" text NOT NULL,
	"role_id" text NOT NULL,
	"want" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "discord_role_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "discord_role_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"grant_id" bigint NOT NULL,
	"project_id" text NOT NULL,
	"action" text NOT NULL,
	"outcome" text NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "discord_role_reward" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"role_id" text NOT NULL,
	"role_name" text NOT NULL,
	"trigger" text NOT NULL,
	"campaign_id" text,
	"crusade_id" text,
	"pool_id" text,
	"level" integer,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "project_discord" (
	"project_id" text PRIMARY KEY NOT NULL,
	"guild_id" text NOT NULL,
	"guild_name" text DEFAULT '' NOT NULL,
	"bot_token" text NOT NULL,
	"bot_user_id" text DEFAULT '' NOT NULL,
	"bot_username" text DEFAULT '' NOT NULL,
	"problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"checked_at" timestamp with time zone,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_telegram" (
	"project_id" text PRIMARY KEY NOT NULL,
	"chat_id" text NOT NULL,
	"chat_title" text DEFAULT '' NOT NULL,
	"bot_token" text NOT NULL,
	"bot_id" text DEFAULT '' NOT NULL,
	"bot_username" text DEFAULT '' NOT NULL,
	"problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"checked_at" timestamp with time zone,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telegram_chat" (
	"user_id" text PRIMARY KEY NOT NULL,
	"telegram_user_id" text NOT NULL,
	"started_at" timestamp with time zone,
	"blocked_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "account_social_key";--> statement-breakpoint
ALTER TABLE "notification" ADD COLUMN "telegram" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "notification" ADD COLUMN "telegram_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "discord_role_grant" ADD CONSTRAINT "discord_role_grant_reward_id_discord_role_reward_id_fk" FOREIGN KEY ("reward_id") REFERENCES "public"."discord_role_reward"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discord_role_grant" ADD CONSTRAINT "discord_role_grant_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discord_role_grant" ADD CONSTRAINT "discord_role_grant_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discord_role_log" ADD CONSTRAINT "discord_role_log_grant_id_discord_role_grant_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."discord_role_grant"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discord_role_log" ADD CONSTRAINT "discord_role_log_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discord_role_reward" ADD CONSTRAINT "discord_role_reward_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discord_role_reward" ADD CONSTRAINT "discord_role_reward_campaign_id_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaign"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discord_role_reward" ADD CONSTRAINT "discord_role_reward_crusade_id_crusade_id_fk" FOREIGN KEY ("crusade_id") REFERENCES "public"."crusade"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discord_role_reward" ADD CONSTRAINT "discord_role_reward_pool_id_reward_pool_id_fk" FOREIGN KEY ("pool_id") REFERENCES "public"."reward_pool"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discord_role_reward" ADD CONSTRAINT "discord_role_reward_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_discord" ADD CONSTRAINT "project_discord_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_discord" ADD CONSTRAINT "project_discord_updated_by_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_telegram" ADD CONSTRAINT "project_telegram_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_telegram" ADD CONSTRAINT "project_telegram_updated_by_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_chat" ADD CONSTRAINT "telegram_chat_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "discord_role_grant_key" ON "discord_role_grant" USING btree ("reward_id","user_id");--> statement-breakpoint
CREATE INDEX "discord_role_grant_user_idx" ON "discord_role_grant" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "discord_role_grant_due_idx" ON "discord_role_grant" USING btree ("next_attempt_at") WHERE "discord_role_grant"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "discord_role_log_project_idx" ON "discord_role_log" USING btree ("project_id","id");--> statement-breakpoint
CREATE INDEX "discord_role_reward_project_idx" ON "discord_role_reward" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "notification_telegram_idx" ON "notification" USING btree ("id") WHERE "notification"."telegram" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "account_social_key" ON "account" USING btree ("provider_id","account_id") WHERE provider_id in ('x', 'youtube', 'tiktok', 'instagram', 'discord', 'telegram');