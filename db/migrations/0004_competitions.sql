CREATE TABLE "challenges" (
	"id" text PRIMARY KEY NOT NULL,
	"ctf_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"title" text NOT NULL,
	"category" text NOT NULL,
	"difficulty" text,
	"description" text DEFAULT '' NOT NULL,
	"points" integer DEFAULT 100 NOT NULL,
	"flag_hash" text NOT NULL,
	"flag_sealed" text NOT NULL,
	"hints" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"platform_challenge_id" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ctfs" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"host" text NOT NULL,
	"url" text,
	"last_error" text,
	"snapshot" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deployed_at" timestamp with time zone,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "deployments" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"challenge_id" text NOT NULL,
	"status" text DEFAULT 'deploying' NOT NULL,
	"url" text,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"stop_reason" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"live_at" timestamp with time zone,
	"stopped_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "members" (
	"id" text PRIMARY KEY NOT NULL,
	"ctf_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"email" text NOT NULL,
	"token" text NOT NULL,
	"status" text DEFAULT 'invited' NOT NULL,
	"self_enrolled" boolean DEFAULT false NOT NULL,
	"invitations" integer DEFAULT 1 NOT NULL,
	"score" integer DEFAULT 0 NOT NULL,
	"invited_at" timestamp with time zone DEFAULT now() NOT NULL,
	"joined_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_ctf_id_ctfs_id_fk" FOREIGN KEY ("ctf_id") REFERENCES "public"."ctfs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ctfs" ADD CONSTRAINT "ctfs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_ctf_id_ctfs_id_fk" FOREIGN KEY ("ctf_id") REFERENCES "public"."ctfs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "challenges_ctf_idx" ON "challenges" USING btree ("ctf_id","created_at");--> statement-breakpoint
CREATE INDEX "ctfs_workspace_idx" ON "ctfs" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "deployments_workspace_idx" ON "deployments" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "members_ctf_email_idx" ON "members" USING btree ("ctf_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "members_token_idx" ON "members" USING btree ("token");