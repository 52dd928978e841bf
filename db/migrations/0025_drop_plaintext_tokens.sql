DROP INDEX "recipients_token_idx";--> statement-breakpoint
DROP INDEX "class_invitations_token_idx";--> statement-breakpoint
DROP INDEX "members_token_idx";--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ALTER COLUMN "secret_sealed" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "recipients" ALTER COLUMN "token_hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "recipients" ALTER COLUMN "token_sealed" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "class_invitations" ALTER COLUMN "token_hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "class_invitations" ALTER COLUMN "token_sealed" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "members" ALTER COLUMN "token_hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "members" ALTER COLUMN "token_sealed" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" DROP COLUMN "secret";--> statement-breakpoint
ALTER TABLE "recipients" DROP COLUMN "token";--> statement-breakpoint
ALTER TABLE "class_invitations" DROP COLUMN "token";--> statement-breakpoint
ALTER TABLE "members" DROP COLUMN "token";