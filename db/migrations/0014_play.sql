CREATE TABLE "flag_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"ctf_id" text NOT NULL,
	"challenge_id" text NOT NULL,
	"member_id" text NOT NULL,
	"result" text NOT NULL,
	"submitted" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hint_unlocks" (
	"id" text PRIMARY KEY NOT NULL,
	"ctf_id" text NOT NULL,
	"challenge_id" text NOT NULL,
	"member_id" text NOT NULL,
	"hint" integer NOT NULL,
	"cost" integer NOT NULL,
	"unlocked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "player_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"ctf_id" text NOT NULL,
	"member_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "solves" (
	"id" text PRIMARY KEY NOT NULL,
	"ctf_id" text NOT NULL,
	"challenge_id" text NOT NULL,
	"member_id" text NOT NULL,
	"points" integer NOT NULL,
	"solved_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "display_name" text;--> statement-breakpoint
ALTER TABLE "flag_attempts" ADD CONSTRAINT "flag_attempts_ctf_id_ctfs_id_fk" FOREIGN KEY ("ctf_id") REFERENCES "public"."ctfs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flag_attempts" ADD CONSTRAINT "flag_attempts_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flag_attempts" ADD CONSTRAINT "flag_attempts_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hint_unlocks" ADD CONSTRAINT "hint_unlocks_ctf_id_ctfs_id_fk" FOREIGN KEY ("ctf_id") REFERENCES "public"."ctfs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hint_unlocks" ADD CONSTRAINT "hint_unlocks_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hint_unlocks" ADD CONSTRAINT "hint_unlocks_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "player_sessions" ADD CONSTRAINT "player_sessions_ctf_id_ctfs_id_fk" FOREIGN KEY ("ctf_id") REFERENCES "public"."ctfs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "player_sessions" ADD CONSTRAINT "player_sessions_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solves" ADD CONSTRAINT "solves_ctf_id_ctfs_id_fk" FOREIGN KEY ("ctf_id") REFERENCES "public"."ctfs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solves" ADD CONSTRAINT "solves_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solves" ADD CONSTRAINT "solves_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "flag_attempts_ctf_idx" ON "flag_attempts" USING btree ("ctf_id","created_at");--> statement-breakpoint
CREATE INDEX "flag_attempts_member_idx" ON "flag_attempts" USING btree ("member_id","challenge_id");--> statement-breakpoint
CREATE UNIQUE INDEX "hint_unlocks_member_hint_idx" ON "hint_unlocks" USING btree ("member_id","challenge_id","hint");--> statement-breakpoint
CREATE INDEX "hint_unlocks_ctf_idx" ON "hint_unlocks" USING btree ("ctf_id");--> statement-breakpoint
CREATE UNIQUE INDEX "player_sessions_token_idx" ON "player_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "player_sessions_member_idx" ON "player_sessions" USING btree ("member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "solves_member_challenge_idx" ON "solves" USING btree ("member_id","challenge_id");--> statement-breakpoint
CREATE INDEX "solves_ctf_idx" ON "solves" USING btree ("ctf_id");