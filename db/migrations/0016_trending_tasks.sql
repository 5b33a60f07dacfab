CREATE TABLE "trending_task" (
	"task_id" text PRIMARY KEY NOT NULL,
	"recent" integer NOT NULL,
	"task_created_at" timestamp with time zone NOT NULL,
	"counted_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trending_task" ADD CONSTRAINT "trending_task_task_id_task_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."task"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trending_task_order_idx" ON "trending_task" USING btree ("recent","task_created_at");--> statement-breakpoint
CREATE INDEX "task_published_created_idx" ON "task" USING btree ("created_at") WHERE "task"."published_at" is not null;