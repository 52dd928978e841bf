ALTER TABLE "challenge_artifacts" ADD COLUMN "platform_file_id" integer;--> statement-breakpoint
ALTER TABLE "challenge_files" ADD COLUMN "platform_file_id" integer;