CREATE TABLE "challenge_files" (
	"id" text PRIMARY KEY NOT NULL,
	"challenge_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"size" integer NOT NULL,
	"content_type" text NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stored_files" (
	"key" text PRIMARY KEY NOT NULL,
	"bytes" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "challenge_files" ADD CONSTRAINT "challenge_files_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "challenge_files_challenge_idx" ON "challenge_files" USING btree ("challenge_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "challenge_files_storage_key_idx" ON "challenge_files" USING btree ("storage_key");