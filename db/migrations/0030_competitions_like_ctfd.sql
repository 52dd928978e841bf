CREATE TABLE "announcements" (
	"id" text PRIMARY KEY NOT NULL,
	"ctf_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" text PRIMARY KEY NOT NULL,
	"ctf_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"invite_code_hash" text NOT NULL,
	"invite_code_sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "hint_unlocks_member_hint_idx";--> statement-breakpoint
DROP INDEX "solves_member_challenge_idx";--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "scoring" jsonb DEFAULT '{"type":"static"}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "requires" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "max_attempts" integer;--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "tags" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "ctfs" ADD COLUMN "mode" text DEFAULT 'individual' NOT NULL;--> statement-breakpoint
ALTER TABLE "ctfs" ADD COLUMN "team_size_max" integer;--> statement-breakpoint
ALTER TABLE "ctfs" ADD COLUMN "freeze_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "team_id" text;--> statement-breakpoint
ALTER TABLE "flag_attempts" ADD COLUMN "team_id" text;--> statement-breakpoint
ALTER TABLE "hint_unlocks" ADD COLUMN "team_id" text;--> statement-breakpoint
ALTER TABLE "solves" ADD COLUMN "team_id" text;--> statement-breakpoint
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_ctf_id_ctfs_id_fk" FOREIGN KEY ("ctf_id") REFERENCES "public"."ctfs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_ctf_id_ctfs_id_fk" FOREIGN KEY ("ctf_id") REFERENCES "public"."ctfs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "announcements_ctf_idx" ON "announcements" USING btree ("ctf_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "teams_ctf_name_idx" ON "teams" USING btree ("ctf_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "teams_invite_code_idx" ON "teams" USING btree ("invite_code_hash");--> statement-breakpoint
CREATE INDEX "teams_ctf_idx" ON "teams" USING btree ("ctf_id","created_at");--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flag_attempts" ADD CONSTRAINT "flag_attempts_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hint_unlocks" ADD CONSTRAINT "hint_unlocks_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solves" ADD CONSTRAINT "solves_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "members_team_idx" ON "members" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "flag_attempts_team_idx" ON "flag_attempts" USING btree ("team_id","challenge_id");--> statement-breakpoint
CREATE UNIQUE INDEX "hint_unlocks_team_hint_idx" ON "hint_unlocks" USING btree ("team_id","challenge_id","hint") WHERE "hint_unlocks"."team_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "solves_team_challenge_idx" ON "solves" USING btree ("team_id","challenge_id") WHERE "solves"."team_id" is not null;--> statement-breakpoint
CREATE INDEX "solves_challenge_idx" ON "solves" USING btree ("challenge_id","solved_at");--> statement-breakpoint
CREATE UNIQUE INDEX "hint_unlocks_member_hint_idx" ON "hint_unlocks" USING btree ("member_id","challenge_id","hint") WHERE "hint_unlocks"."team_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "solves_member_challenge_idx" ON "solves" USING btree ("member_id","challenge_id") WHERE "solves"."team_id" is null;