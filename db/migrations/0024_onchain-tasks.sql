CREATE TABLE "onchain_event_match" (
	"task_id" text NOT NULL,
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"address" text NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"amount" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "onchain_tx_use" (
	"task_id" text NOT NULL,
	"tx_hash" text NOT NULL,
	"chain_id" integer NOT NULL,
	"completion_id" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "onchain_event_match" ADD CONSTRAINT "onchain_event_match_task_id_task_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."task"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "onchain_tx_use" ADD CONSTRAINT "onchain_tx_use_task_id_task_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."task"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "onchain_tx_use" ADD CONSTRAINT "onchain_tx_use_completion_id_completion_id_fk" FOREIGN KEY ("completion_id") REFERENCES "public"."completion"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "onchain_tx_use" ADD CONSTRAINT "onchain_tx_use_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "onchain_event_match_key" ON "onchain_event_match" USING btree ("task_id","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "onchain_event_match_member_idx" ON "onchain_event_match" USING btree ("task_id","address");--> statement-breakpoint
CREATE UNIQUE INDEX "onchain_tx_use_key" ON "onchain_tx_use" USING btree ("task_id","tx_hash");--> statement-breakpoint
CREATE INDEX "onchain_tx_use_completion_idx" ON "onchain_tx_use" USING btree ("completion_id");