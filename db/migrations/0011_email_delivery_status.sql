CREATE TABLE "provider_pacing" (
	"name" text PRIMARY KEY NOT NULL,
	"next_slot_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_messages" ADD COLUMN "recipient_id" integer;--> statement-breakpoint
ALTER TABLE "email_messages" ADD COLUMN "invitation_id" integer;--> statement-breakpoint
ALTER TABLE "email_messages" ADD COLUMN "delivery_status" text;--> statement-breakpoint
ALTER TABLE "email_messages" ADD COLUMN "delivery_detail" text;--> statement-breakpoint
ALTER TABLE "email_messages" ADD COLUMN "delivery_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_messages" ADD CONSTRAINT "email_messages_recipient_id_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."recipients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_messages" ADD CONSTRAINT "email_messages_invitation_id_class_invitations_id_fk" FOREIGN KEY ("invitation_id") REFERENCES "public"."class_invitations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_messages_recipient_idx" ON "email_messages" USING btree ("recipient_id","created_at");--> statement-breakpoint
CREATE INDEX "email_messages_invitation_idx" ON "email_messages" USING btree ("invitation_id","created_at");--> statement-breakpoint
CREATE INDEX "email_messages_provider_idx" ON "email_messages" USING btree ("provider_id");