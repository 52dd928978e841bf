import { z } from "zod";
import { ctfModes } from "@/db/schema/statuses";
import { pageSchema } from "@/lib/kernel/paging";
import { DISPLAY_LINE_MESSAGE, isDisplayLine, isStorableText } from "@/lib/kernel/values";

/** A team's name: shown on the scoreboard and in CTFtime's feed; unique per competition, case-insensitively. */
const teamName = z
  .string({ error: "Give the team a name." })
  .trim()
  .min(1, "Give the team a name.")
  .max(40, "At most 40 characters.")
  .refine(isStorableText, "Must not contain NUL characters or unpaired surrogates.")
  // Invisible, formatting and text-direction characters would let a name look empty or pass for another on the board.
  .refine(isDisplayLine, DISPLAY_LINE_MESSAGE)
  .meta({
    description:
      "1–40 characters, trimmed; one line of visible text (no control, invisible, formatting or text-direction characters, at least one visible letter, digit or sign); unique in the competition, case-insensitively (another team's name → 409).",
  });

/** `POST /api/c/{ctf_id}/teams`. */
export const createTeamInput = z.object({ name: teamName });
export type CreateTeamInput = z.output<typeof createTeamInput>;

/** `POST /api/c/{ctf_id}/teams/join`. */
export const joinTeamInput = z
  .object({
    invite_code: z
      .string({ error: "Give the team's invite code." })
      .trim()
      .min(1, "Give the team's invite code.")
      // Generous: any malformed code is the same 404 as an unknown one (the domain checks its shape), only absurd lengths are refused here.
      .max(2000, "Not an invite code.")
      .meta({ description: "The code a member of the team shares (shown to them on the competition's page and by `GET /api/c/{ctf_id}/team`)." }),
  });
export type JoinTeamInput = z.output<typeof joinTeamInput>;

/** `PATCH /api/v1/ctfs/{ctf_id}/teams/{team_id}`. */
export const renameTeamInput = z.object({ name: teamName });
export type RenameTeamInput = z.output<typeof renameTeamInput>;

/** A team as its own members see it: its invite code, and its members by display name (never their addresses). */
export const playerTeamView = z
  .object({
    id: z.string().meta({ description: "`team_…`." }),
    name: z.string(),
    invite_code: z.string().meta({ description: "What another player gives to `POST /api/c/{ctf_id}/teams/join` to join; shown to the team's members only." }),
    members: z.array(z.object({ member_id: z.string(), name: z.string().meta({ description: "The member's display name." }) })).meta({ description: "In the order they joined the competition." }),
    created_at: z.string(),
  })
  .meta({ id: "PlayerTeam" });
export type PlayerTeamView = z.infer<typeof playerTeamView>;

/** `GET /api/c/{ctf_id}/team`: the caller's team, or null before they have one. */
export const myTeamView = z
  .object({
    mode: z.enum(ctfModes).meta({ description: "The competition's mode: a team applies in `teams` only." }),
    team_size_max: z.number().int().nullable().meta({ description: "The most members a team may have; null for no limit." }),
    team: playerTeamView.nullable().meta({ description: "The caller's team; null until they create or join one (and after an organiser removed them)." }),
  })
  .meta({ id: "MyTeam" });
export type MyTeamView = z.infer<typeof myTeamView>;

/** A team as the organiser sees it: its members with their addresses; never the invite code. */
export const teamView = z
  .object({
    id: z.string().meta({ description: "`team_…`." }),
    name: z.string(),
    members: z
      .array(z.object({ id: z.string().meta({ description: "The member (`mem_…`)." }), name: z.string().meta({ description: "The member's display name." }), email: z.string() }))
      .meta({ description: "In the order they joined the competition." }),
    created_at: z.string(),
  })
  .meta({ id: "Team" });
export type TeamView = z.infer<typeof teamView>;
export const teamList = pageSchema(teamView).meta({ id: "TeamList" });
