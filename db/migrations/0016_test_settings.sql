ALTER TABLE "recipients" ADD COLUMN "option_orders" jsonb;--> statement-breakpoint
ALTER TABLE "recipients" ADD COLUMN "deadline_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "recipients" ADD COLUMN "reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "recipients" ADD COLUMN "result_emailed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tests" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "tests" ADD COLUMN "time_limit_minutes" integer;--> statement-breakpoint
ALTER TABLE "tests" ADD COLUMN "opens_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tests" ADD COLUMN "closes_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tests" ADD COLUMN "pass_mark" double precision;--> statement-breakpoint
ALTER TABLE "tests" ADD COLUMN "shuffle_options" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "tests" ADD COLUMN "show_answers" text DEFAULT 'after_submit' NOT NULL;--> statement-breakpoint
ALTER TABLE "tests" ADD COLUMN "reminder_after_hours" integer;--> statement-breakpoint
ALTER TABLE "tests" ADD COLUMN "send_result" boolean DEFAULT false NOT NULL;