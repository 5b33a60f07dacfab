CREATE TABLE "leaderboard_entry" (
	"board" text NOT NULL,
	"user_id" text NOT NULL,
	"score" bigint NOT NULL,
	"reached_at" timestamp with time zone NOT NULL,
	"visible" boolean DEFAULT true NOT NULL,
	CONSTRAINT "leaderboard_entry_board_user_id_pk" PRIMARY KEY("board","user_id")
);
--> statement-breakpoint
CREATE TABLE "leaderboard_histogram" (
	"board" text NOT NULL,
	"score" bigint NOT NULL,
	"members" integer NOT NULL,
	CONSTRAINT "leaderboard_histogram_board_score_pk" PRIMARY KEY("board","score")
);
--> statement-breakpoint
CREATE TABLE "leaderboard_preference" (
	"user_id" text PRIMARY KEY NOT NULL,
	"visible" boolean DEFAULT true NOT NULL,
	"display_name" text
);
--> statement-breakpoint
CREATE TABLE "xp_daily" (
	"scope" text NOT NULL,
	"user_id" text NOT NULL,
	"day" date NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "xp_daily_scope_day_user_id_pk" PRIMARY KEY("scope","day","user_id")
);
--> statement-breakpoint
CREATE TABLE "xp_event" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"project_id" text,
	"campaign_id" text,
	"source_type" text NOT NULL,
	"source_id" text NOT NULL,
	"amount" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "xp_window_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"expired_through" date DEFAULT (now() at time zone 'utc')::date - 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leaderboard_entry" ADD CONSTRAINT "leaderboard_entry_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leaderboard_preference" ADD CONSTRAINT "leaderboard_preference_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "xp_daily" ADD CONSTRAINT "xp_daily_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "xp_event" ADD CONSTRAINT "xp_event_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leaderboard_entry_rank_idx" ON "leaderboard_entry" USING btree ("board","visible","score" DESC NULLS LAST,"reached_at","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "xp_event_source_key" ON "xp_event" USING btree ("source_type","source_id","user_id");--> statement-breakpoint
CREATE INDEX "xp_event_user_idx" ON "xp_event" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "xp_event_project_idx" ON "xp_event" USING btree ("project_id","created_at");