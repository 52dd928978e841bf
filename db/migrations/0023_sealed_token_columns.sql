ALTER TABLE "webhook_endpoints" ADD COLUMN "secret_sealed" text;--> statement-breakpoint
ALTER TABLE "recipients" ADD COLUMN "token_hash" text;--> statement-breakpoint
ALTER TABLE "recipients" ADD COLUMN "token_sealed" text;--> statement-breakpoint
ALTER TABLE "class_invitations" ADD COLUMN "token_hash" text;--> statement-breakpoint
ALTER TABLE "class_invitations" ADD COLUMN "token_sealed" text;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "token_hash" text;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "token_sealed" text;--> statement-breakpoint
CREATE UNIQUE INDEX "recipients_token_hash_idx" ON "recipients" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "class_invitations_token_hash_idx" ON "class_invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "members_token_hash_idx" ON "members" USING btree ("token_hash");