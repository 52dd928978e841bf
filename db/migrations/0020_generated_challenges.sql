CREATE TABLE "challenge_artifacts" (
	"challenge_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"file_name" text,
	"file_type" text,
	"file_data" "bytea",
	"target" jsonb,
	"solution" jsonb NOT NULL,
	"revealed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "template" text;--> statement-breakpoint
ALTER TABLE "challenge_artifacts" ADD CONSTRAINT "challenge_artifacts_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;