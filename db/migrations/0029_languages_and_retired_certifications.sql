ALTER TABLE "workspaces" ADD COLUMN "default_language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "certifications" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tests" ADD COLUMN "language" text DEFAULT 'auto' NOT NULL;