CREATE TABLE "attempt_integrity" (
	"recipient_id" integer PRIMARY KEY NOT NULL,
	"start_address" text,
	"start_browser" text,
	"submit_address" text,
	"submit_browser" text,
	"browsers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"hidden_count" integer DEFAULT 0 NOT NULL,
	"hidden_ms" integer DEFAULT 0 NOT NULL,
	"copy_count" integer DEFAULT 0 NOT NULL,
	"fullscreen_exits" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "certificates" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"test_id" integer NOT NULL,
	"recipient_id" integer NOT NULL,
	"recipient_name" text NOT NULL,
	"test_name" text NOT NULL,
	"certification_name" text NOT NULL,
	"score" real NOT NULL,
	"organisation" text NOT NULL,
	"signer" text DEFAULT '' NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "organisation_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "certificate_signer" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "type" text DEFAULT 'single' NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "correct_indexes" jsonb;--> statement-breakpoint
ALTER TABLE "answers" ADD COLUMN "option_indexes" jsonb;--> statement-breakpoint
ALTER TABLE "recipients" ADD COLUMN "extra_time_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "test_questions" ADD COLUMN "type" text DEFAULT 'single' NOT NULL;--> statement-breakpoint
ALTER TABLE "test_questions" ADD COLUMN "correct_indexes" jsonb;--> statement-breakpoint
ALTER TABLE "tests" ADD COLUMN "draw" text DEFAULT 'per_test' NOT NULL;--> statement-breakpoint
ALTER TABLE "tests" ADD COLUMN "record_integrity" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "tests" ADD COLUMN "certificate" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "attempt_integrity" ADD CONSTRAINT "attempt_integrity_recipient_id_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_test_id_tests_id_fk" FOREIGN KEY ("test_id") REFERENCES "public"."tests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_recipient_id_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_recipient_idx" ON "certificates" USING btree ("recipient_id");--> statement-breakpoint
CREATE INDEX "certificates_workspace_idx" ON "certificates" USING btree ("workspace_id");