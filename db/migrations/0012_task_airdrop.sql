ALTER TABLE "task" ADD COLUMN "airdrop_id" text;--> statement-breakpoint
ALTER TABLE "task" ADD CONSTRAINT "task_airdrop_id_airdrop_id_fk" FOREIGN KEY ("airdrop_id") REFERENCES "public"."airdrop"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "task_airdrop_idx" ON "task" USING btree ("airdrop_id");