import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, boolean, type AnyPgColumn } from "drizzle-orm/pg-core";
import { bytea } from "./stored-files";
import { workspaces } from "./workspaces";
import { ctfStatuses, challengeStatuses, ctfModes, deploymentStatuses, flagModes, memberStatuses, scoringTypes } from "./statuses";

export { ctfStatuses, challengeStatuses, ctfModes, deploymentStatuses, flagModes, memberStatuses, scoringTypes };

export type CtfStatus = (typeof ctfStatuses)[number];
export type CtfMode = (typeof ctfModes)[number];

/** A challenge's scoring: `static` is worth `points`; `dynamic` falls from `initial` to `minimum` over `decay` solves (CTFd's formula). */
export type ChallengeScoring = { type: "static" } | { type: "dynamic"; initial: number; minimum: number; decay: number };

export type CtfSnapshot = {
  archived_at: string;
  challenges: { challenge_id: string; title: string; category: string; points: number; status: string; platform_challenge_id: number | null }[];
  members: { member_id: string; email: string; status: string; score: number }[];
  /**
   * The final scoreboard, in its order: the joined players (built-in host), or the host's
   * accounts (CTFd: `platform_account_id`; `member_id` and `email` null for an account no
   * member's address matches).
   */
  scores: {
    pos?: number;
    member_id: string | null;
    /** Teams mode: the team the entry is (member_id null then); absent before teams existed. */
    team_id?: string | null;
    platform_account_id?: number;
    name?: string;
    email: string | null;
    score: number;
    solves?: number;
    last_solve_at?: string | null;
    /** Challenges this entry solved first; absent from older snapshots (derived from `solves`). */
    first_blood?: string[];
  }[];
  /** Absent from snapshots taken before players could play. */
  solves?: { member_id: string | null; team_id?: string | null; platform_account_id?: number; challenge_id: string; points: number; solved_at: string; first_blood?: boolean }[];
  attempts?: { challenge_id: string; attempts: number; correct: number }[];
  /** The hint unlocks (built-in host; each cost is taken from the score), for the score graph; absent from older snapshots and on CTFd. */
  hint_unlocks?: { member_id: string; team_id: string | null; challenge_id: string; hint: number; cost: number; unlocked_at: string }[];
};

/** A managed competition, hosted on the configured competition platform. */
export const ctfs = pgTable(
  "ctfs",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    isPublic: boolean("is_public").notNull().default(false),
    /** `individual` (each player ranks alone) or `teams` (players create or join a team; a team's members share solves, hint costs and attempts). Fixed once the competition starts. */
    mode: text("mode").$type<CtfMode>().notNull().default("individual"),
    /** Teams mode: the most members a team may have; null for no limit. */
    teamSizeMax: integer("team_size_max"),
    /** After this moment the public board, the public scoreboard API and the CTFtime feed show the standings as they were then; null: never frozen. */
    freezeAt: timestamp("freeze_at", { withTimezone: true }),
    status: text("status").$type<CtfStatus>().notNull().default("draft"),
    host: text("host").notNull(),
    url: text("url"),
    lastError: text("last_error"),
    snapshot: jsonb("snapshot").$type<CtfSnapshot>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    deployedAt: timestamp("deployed_at", { withTimezone: true }),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
  },
  (t) => [index("ctfs_workspace_idx").on(t.workspaceId, t.createdAt)],
);

export type FlagMode = (typeof flagModes)[number];

export type ChallengeStatus = (typeof challengeStatuses)[number];

export const challenges = pgTable(
  "challenges",
  {
    id: text("id").primaryKey(),
    ctfId: text("ctf_id")
      .notNull()
      .references(() => ctfs.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id").notNull(),
    title: text("title").notNull(),
    category: text("category").notNull(),
    difficulty: text("difficulty"),
    description: text("description").notNull().default(""),
    /** A static challenge's worth; a dynamic one's `initial` (its current value is derived from its solves). */
    points: integer("points").notNull().default(100),
    scoring: jsonb("scoring").$type<ChallengeScoring>().notNull().default({ type: "static" }),
    /** Challenge ids (of the same competition) a player or team must have solved before this one opens. */
    requires: jsonb("requires").$type<string[]>().notNull().default([]),
    /** Wrong flags a player (or team) may submit before the challenge closes for them; null: unlimited. */
    maxAttempts: integer("max_attempts"),
    /** Free labels shown on the card (CTFd's tags). */
    tags: jsonb("tags").$type<string[]>().notNull().default([]),
    /**
     * SHA-256 of the flag (lower-cased for `case_insensitive`; checking submissions); the sealed
     * copy goes to an external host. A `regex` challenge is checked against its sealed pattern
     * (a pattern cannot be hashed); its hash is the pattern's and checks nothing.
     */
    flagHash: text("flag_hash").notNull(),
    flagSealed: text("flag_sealed").notNull(),
    flagMode: text("flag_mode").$type<FlagMode>().notNull().default("exact"),
    hints: jsonb("hints").$type<{ text: string; cost: number }[]>().notNull().default([]),
    /** The shipped template a generated challenge was built from (lib/ctf/templates/catalog/); null for one written by hand. */
    template: text("template"),
    status: text("status").$type<ChallengeStatus>().notNull().default("draft"),
    platformChallengeId: integer("platform_challenge_id"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("challenges_ctf_idx").on(t.ctfId, t.createdAt)],
);

/**
 * A file players download with a challenge (an archive, a capture, a binary). Its bytes are
 * in the configured file storage under `storage_key` (lib/storage); the name is only ever
 * shown and sent in Content-Disposition, never used as a path.
 */
export const challengeFiles = pgTable(
  "challenge_files",
  {
    id: text("id").primaryKey(),
    challengeId: text("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id").notNull(),
    name: text("name").notNull(),
    size: integer("size").notNull(),
    /** As uploaded (normalised to `type/subtype`); a download is sent as it only when it is a safe type. */
    contentType: text("content_type").notNull(),
    /** Hex SHA-256 of the bytes, for players to check what they downloaded. */
    sha256: text("sha256").notNull(),
    storageKey: text("storage_key").notNull(),
    /** CTFd's id of the copy uploaded to the challenge's CTFd challenge (a CTFd-hosted competition); null until uploaded. */
    platformFileId: integer("platform_file_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("challenge_files_challenge_idx").on(t.challengeId, t.createdAt), uniqueIndex("challenge_files_storage_key_idx").on(t.storageKey)],
);

/**
 * What a generated challenge's player works on, made with its flag (lib/ctf/templates/generate.ts):
 * a small file (ciphertext, capture, image…) and/or the state of a web target the built-in
 * host serves, plus the solution steps the organiser may reveal. Kept with the challenge,
 * gone with it. A target's state never holds the flag (the host unseals it per request).
 */
export const challengeArtifacts = pgTable("challenge_artifacts", {
  challengeId: text("challenge_id")
    .primaryKey()
    .references(() => challenges.id, { onDelete: "cascade" }),
  workspaceId: text("workspace_id").notNull(),
  fileName: text("file_name"),
  fileType: text("file_type"),
  fileData: bytea("file_data"),
  target: jsonb("target").$type<Record<string, unknown>>(),
  solution: jsonb("solution").$type<string[]>().notNull(),
  /** CTFd's id of the file's copy uploaded with the challenge (a CTFd-hosted competition); null until uploaded. */
  platformFileId: integer("platform_file_id"),
  /** When the organiser last revealed the flag and solution (POST …/reveal). */
  revealedAt: timestamp("revealed_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type DeploymentStatus = (typeof deploymentStatuses)[number];

/** A standalone single-challenge deployment for a time window. */
export const deployments = pgTable(
  "deployments",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    challengeId: text("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    status: text("status").$type<DeploymentStatus>().notNull().default("deploying"),
    url: text("url"),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    stopReason: text("stop_reason"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    liveAt: timestamp("live_at", { withTimezone: true }),
    stoppedAt: timestamp("stopped_at", { withTimezone: true }),
  },
  (t) => [index("deployments_workspace_idx").on(t.workspaceId, t.createdAt)],
);

export type MemberStatus = (typeof memberStatuses)[number];

/**
 * A team of a `teams`-mode competition: created by a player, joined with its invite code. Its
 * members share solves, hint costs and attempts (rows in lib/ctf/play carry `team_id`). Names
 * are unique per competition, case-insensitively.
 */
export const teams = pgTable(
  "teams",
  {
    id: text("id").primaryKey(),
    ctfId: text("ctf_id")
      .notNull()
      .references(() => ctfs.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id").notNull(),
    name: text("name").notNull(),
    /** SHA-256 (hex) of the invite code, and the code sealed (to show it to the team's members again). */
    inviteCodeHash: text("invite_code_hash").notNull(),
    inviteCodeSealed: text("invite_code_sealed").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("teams_ctf_name_idx").on(t.ctfId, sql`lower(${t.name})`), uniqueIndex("teams_invite_code_idx").on(t.inviteCodeHash), index("teams_ctf_idx").on(t.ctfId, t.createdAt)],
);

export const members = pgTable(
  "members",
  {
    id: text("id").primaryKey(),
    ctfId: text("ctf_id")
      .notNull()
      .references(() => ctfs.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id").notNull(),
    email: text("email").notNull(),
    /** SHA-256 (hex) of the member's token (`/c/join/{token}`, which signs the player in), and the token sealed (to e-mail it again): never the token itself. */
    tokenHash: text("token_hash").notNull(),
    tokenSealed: text("token_sealed").notNull(),
    status: text("status").$type<MemberStatus>().notNull().default("invited"),
    selfEnrolled: boolean("self_enrolled").notNull().default(false),
    invitations: integer("invitations").notNull().default(1),
    /** Written when the competition is archived (the live score is derived from solves and hint unlocks). */
    score: integer("score").notNull().default(0),
    /** Shown to other players instead of the address; asked at acceptance. */
    displayName: text("display_name"),
    /** Teams mode: the member's team; null until they create or join one (and again when removed from it). */
    teamId: text("team_id").references((): AnyPgColumn => teams.id, { onDelete: "set null" }),
    invitedAt: timestamp("invited_at", { withTimezone: true }).notNull().defaultNow(),
    joinedAt: timestamp("joined_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("members_ctf_email_idx").on(t.ctfId, t.email), uniqueIndex("members_token_hash_idx").on(t.tokenHash), index("members_team_idx").on(t.teamId)],
);

export type Ctf = typeof ctfs.$inferSelect;
export type Challenge = typeof challenges.$inferSelect;
export type ChallengeArtifact = typeof challengeArtifacts.$inferSelect;
export type Deployment = typeof deployments.$inferSelect;
export type Member = typeof members.$inferSelect;
export type ChallengeFile = typeof challengeFiles.$inferSelect;
export type Team = typeof teams.$inferSelect;

/** What an organiser tells a competition's players (`POST /api/v1/ctfs/{ctf_id}/announcements`); shown live on `/c/{id}`, newest first. */
export const announcements = pgTable(
  "announcements",
  {
    id: text("id").primaryKey(),
    ctfId: text("ctf_id")
      .notNull()
      .references(() => ctfs.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id").notNull(),
    title: text("title").notNull(),
    /** Markdown, rendered safely like challenge descriptions. */
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("announcements_ctf_idx").on(t.ctfId, t.createdAt)],
);

export type Announcement = typeof announcements.$inferSelect;
