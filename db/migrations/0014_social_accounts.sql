CREATE TABLE "social_account" (
	"provider" text NOT NULL,
	"account_id" text NOT NULL,
	"handle" text DEFAULT '' NOT NULL,
	"display_name" text DEFAULT '' NOT NULL,
	"avatar_url" text,
	"method" text DEFAULT 'oauth' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"status_reason" text,
	"checked_at" timestamp with time zone,
	"last_user_id" text,
	"unlinked_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "social_account_provider_account_id_pk" PRIMARY KEY("provider","account_id")
);
--> statement-breakpoint
CREATE TABLE "x_verification_code" (
	"user_id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "completion" ADD COLUMN "verified_by" text;--> statement-breakpoint
ALTER TABLE "completion" ADD COLUMN "evidence" jsonb;--> statement-breakpoint
ALTER TABLE "social_account" ADD CONSTRAINT "social_account_last_user_id_user_id_fk" FOREIGN KEY ("last_user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "x_verification_code" ADD CONSTRAINT "x_verification_code_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "social_account_last_user_idx" ON "social_account" USING btree ("last_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "account_social_key" ON "account" USING btree ("provider_id","account_id") WHERE provider_id in ('x', 'youtube', 'tiktok', 'instagram');--> statement-breakpoint
-- Completions made before this change: how their task was checked.
UPDATE "completion" SET "verified_by" = CASE "task"."verification" WHEN 'review' THEN 'review' WHEN 'none' THEN 'none' ELSE 'auto' END FROM "task" WHERE "task"."id" = "completion"."task_id";
