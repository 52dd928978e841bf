import { index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { deployments } from "./competitions";
import { attemptResults } from "./statuses";

/**
 * Playing a standalone deployment (`/d/{deployment_id}`): it has no members, so whoever has
 * the link enters a display name and becomes one of its players, signed in by an HttpOnly
 * cookie (`dep_player_{deployment_id}`) whose token's SHA-256 is the player's `token_hash`.
 * Every row is the deployment's and goes with it.
 */

/** The deployment a row belongs to (gone with it). A function: each table needs its own column builders. */
const ofDeployment = () => ({
  deploymentId: text("deployment_id")
    .notNull()
    .references(() => deployments.id, { onDelete: "cascade" }),
});

/** The deployment and the player a row belongs to (gone with either). */
const ofDeploymentPlayer = () => ({
  ...ofDeployment(),
  playerId: text("player_id")
    .notNull()
    .references(() => deploymentPlayers.id, { onDelete: "cascade" }),
});

/** Someone who entered a display name on a live deployment's page: one per cookie (a lost cookie is a new player). */
export const deploymentPlayers = pgTable(
  "deployment_players",
  {
    id: text("id").primaryKey(),
    ...ofDeployment(),
    displayName: text("display_name").notNull(),
    tokenHash: text("token_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("deployment_players_token_idx").on(t.tokenHash), index("deployment_players_deployment_idx").on(t.deploymentId, t.createdAt)],
);

/** Every flag submitted to a deployment: who, when, what came of it; the text only of a wrong one. */
export const deploymentAttempts = pgTable(
  "deployment_attempts",
  {
    id: text("id").primaryKey(),
    ...ofDeploymentPlayer(),
    result: text("result").$type<(typeof attemptResults)[number]>().notNull(),
    /** What was submitted, only when it was wrong. */
    submitted: text("submitted"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("deployment_attempts_deployment_idx").on(t.deploymentId, t.createdAt), index("deployment_attempts_player_idx").on(t.playerId)],
);

/** The deployment's challenge solved by a player: at most once per player; its points as they were then. */
export const deploymentSolves = pgTable(
  "deployment_solves",
  {
    id: text("id").primaryKey(),
    ...ofDeploymentPlayer(),
    points: integer("points").notNull(),
    solvedAt: timestamp("solved_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("deployment_solves_player_idx").on(t.playerId), index("deployment_solves_deployment_idx").on(t.deploymentId, t.solvedAt)],
);

/** A hint of the deployment's challenge a player unlocked (position `hint` from 1): its cost is deducted once. */
export const deploymentHintUnlocks = pgTable(
  "deployment_hint_unlocks",
  {
    id: text("id").primaryKey(),
    ...ofDeploymentPlayer(),
    hint: integer("hint").notNull(),
    cost: integer("cost").notNull(),
    unlockedAt: timestamp("unlocked_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("deployment_hint_unlocks_player_hint_idx").on(t.playerId, t.hint), index("deployment_hint_unlocks_deployment_idx").on(t.deploymentId)],
);

export type DeploymentPlayerRow = typeof deploymentPlayers.$inferSelect;
export type DeploymentAttempt = typeof deploymentAttempts.$inferSelect;
export type DeploymentSolve = typeof deploymentSolves.$inferSelect;
export type DeploymentHintUnlock = typeof deploymentHintUnlocks.$inferSelect;
