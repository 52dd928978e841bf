import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { challenges, ctfs, members, teams } from "./competitions";
import { attemptResults } from "./statuses";

export { attemptResults };
export type AttemptResult = (typeof attemptResults)[number];

/** The competition and the member a row belongs to (gone with either). A function: each table needs its own column builders. */
const playerOf = () => ({
    ctfId: text("ctf_id")
      .notNull()
      .references(() => ctfs.id, { onDelete: "cascade" }),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
});

/** The competition, the challenge and the member a row belongs to (gone with any of them). */
const playerOnChallenge = () => ({
    ctfId: text("ctf_id")
      .notNull()
      .references(() => ctfs.id, { onDelete: "cascade" }),
    challengeId: text("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    /** Teams mode: the team the row counts for (its members share it); null in individual mode. Gone with the team. */
    teamId: text("team_id").references(() => teams.id, { onDelete: "cascade" }),
});

/**
 * A player's sign-in to one competition: the SHA-256 of the random token in the
 * `ctf_player_{ctf_id}` cookie (the token itself is never stored). Made when the member
 * accepts the invitation (again on each acceptance from another browser).
 */
export const playerSessions = pgTable(
  "player_sessions",
  {
    id: text("id").primaryKey(),
    ...playerOf(),
    tokenHash: text("token_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("player_sessions_token_idx").on(t.tokenHash), index("player_sessions_member_idx").on(t.memberId)],
);

/** Every flag submitted: who, when, what came of it; the text only of a wrong one (never a correct flag). */
export const flagAttempts = pgTable(
  "flag_attempts",
  {
    id: text("id").primaryKey(),
    ...playerOnChallenge(),
    result: text("result").$type<AttemptResult>().notNull(),
    /** What was submitted, only when it was wrong. */
    submitted: text("submitted"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("flag_attempts_ctf_idx").on(t.ctfId, t.createdAt), index("flag_attempts_member_idx").on(t.memberId, t.challengeId), index("flag_attempts_team_idx").on(t.teamId, t.challengeId)],
);

/**
 * A challenge solved by a player: at most one per (member, challenge) in individual mode, one
 * per (team, challenge) in teams mode; its points as they were then (a dynamic challenge's
 * score follows its current value: lib/ctf/challenges/scoring.ts).
 */
export const solves = pgTable(
  "solves",
  {
    id: text("id").primaryKey(),
    ...playerOnChallenge(),
    points: integer("points").notNull(),
    solvedAt: timestamp("solved_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("solves_member_challenge_idx").on(t.memberId, t.challengeId).where(sql`${t.teamId} is null`),
    uniqueIndex("solves_team_challenge_idx").on(t.teamId, t.challengeId).where(sql`${t.teamId} is not null`),
    index("solves_ctf_idx").on(t.ctfId),
    index("solves_challenge_idx").on(t.challengeId, t.solvedAt),
  ],
);

/** A hint a player (or team) unlocked (position `hint` from 1): its cost is deducted once. */
export const hintUnlocks = pgTable(
  "hint_unlocks",
  {
    id: text("id").primaryKey(),
    ...playerOnChallenge(),
    hint: integer("hint").notNull(),
    cost: integer("cost").notNull(),
    unlockedAt: timestamp("unlocked_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("hint_unlocks_member_hint_idx").on(t.memberId, t.challengeId, t.hint).where(sql`${t.teamId} is null`),
    uniqueIndex("hint_unlocks_team_hint_idx").on(t.teamId, t.challengeId, t.hint).where(sql`${t.teamId} is not null`),
    index("hint_unlocks_ctf_idx").on(t.ctfId),
  ],
);

export type PlayerSession = typeof playerSessions.$inferSelect;
export type FlagAttempt = typeof flagAttempts.$inferSelect;
export type Solve = typeof solves.$inferSelect;
export type HintUnlock = typeof hintUnlocks.$inferSelect;
