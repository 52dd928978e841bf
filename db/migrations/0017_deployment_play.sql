CREATE TABLE "deployment_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"deployment_id" text NOT NULL,
	"player_id" text NOT NULL,
	"result" text NOT NULL,
	"submitted" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deployment_hint_unlocks" (
	"id" text PRIMARY KEY NOT NULL,
	"deployment_id" text NOT NULL,
	"player_id" text NOT NULL,
	"hint" integer NOT NULL,
	"cost" integer NOT NULL,
	"unlocked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deployment_players" (
	"id" text PRIMARY KEY NOT NULL,
	"deployment_id" text NOT NULL,
	"display_name" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deployment_solves" (
	"id" text PRIMARY KEY NOT NULL,
	"deployment_id" text NOT NULL,
	"player_id" text NOT NULL,
	"points" integer NOT NULL,
	"solved_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deployment_attempts" ADD CONSTRAINT "deployment_attempts_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_attempts" ADD CONSTRAINT "deployment_attempts_player_id_deployment_players_id_fk" FOREIGN KEY ("player_id") REFERENCES "public"."deployment_players"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_hint_unlocks" ADD CONSTRAINT "deployment_hint_unlocks_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_hint_unlocks" ADD CONSTRAINT "deployment_hint_unlocks_player_id_deployment_players_id_fk" FOREIGN KEY ("player_id") REFERENCES "public"."deployment_players"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_players" ADD CONSTRAINT "deployment_players_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_solves" ADD CONSTRAINT "deployment_solves_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_solves" ADD CONSTRAINT "deployment_solves_player_id_deployment_players_id_fk" FOREIGN KEY ("player_id") REFERENCES "public"."deployment_players"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deployment_attempts_deployment_idx" ON "deployment_attempts" USING btree ("deployment_id","created_at");--> statement-breakpoint
CREATE INDEX "deployment_attempts_player_idx" ON "deployment_attempts" USING btree ("player_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deployment_hint_unlocks_player_hint_idx" ON "deployment_hint_unlocks" USING btree ("player_id","hint");--> statement-breakpoint
CREATE INDEX "deployment_hint_unlocks_deployment_idx" ON "deployment_hint_unlocks" USING btree ("deployment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deployment_players_token_idx" ON "deployment_players" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "deployment_players_deployment_idx" ON "deployment_players" USING btree ("deployment_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "deployment_solves_player_idx" ON "deployment_solves" USING btree ("player_id");--> statement-breakpoint
CREATE INDEX "deployment_solves_deployment_idx" ON "deployment_solves" USING btree ("deployment_id","solved_at");