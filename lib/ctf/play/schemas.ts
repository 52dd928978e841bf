import { z } from "zod";
import { attemptResults } from "@/db/schema/statuses";
import { pageSchema } from "@/lib/kernel/paging";

/** `POST /api/c/{ctf_id}/challenges/{challenge_id}/attempts`. */
export const flagAttemptInput = z.object({
  flag: z.string().trim().min(1, "Give a flag.").max(500).meta({ description: "Checked in the challenge's flag mode: its hash compared in constant time with the stored one, or, in `regex` mode, matched whole against the pattern (RE2, linear time); a correct flag's text is never stored." }),
});
export type FlagAttemptInput = z.output<typeof flagAttemptInput>;

export const flagAttemptView = z
  .object({
    status: z.enum(attemptResults),
    points: z.number().int().meta({ description: "Points this attempt earned: when correct, the challenge's value after this solve (its points; a dynamic challenge's falls with each solve), else 0." }),
    score: z.number().int().meta({ description: "The player's score after the attempt (their team's in teams mode)." }),
  })
  .meta({ id: "FlagAttempt" });
export type FlagAttemptView = z.infer<typeof flagAttemptView>;

export const hintUnlockView = z
  .object({
    challenge_id: z.string(),
    hint: z.number().int().meta({ description: "Position of the hint, from 1." }),
    text: z.string(),
    cost: z.number().int(),
    score: z.number().int().meta({ description: "The player's score after the unlock (the cost is deducted once; in teams mode, once per team, from the team's score)." }),
  })
  .meta({ id: "HintUnlock" });
export type HintUnlockView = z.infer<typeof hintUnlockView>;

export const scoreboardEntry = z
  .object({
    pos: z.number().int().meta({ description: "Position, from 1; distinct (ties go to who reached the score first)." }),
    member_id: z.string().nullable().meta({ description: "The member (`mem_…`); null for a team (teams mode) and for a CTFd account whose address matches no member." }),
    team_id: z.string().nullable().meta({ description: "Additive: the team (`team_…`) in a teams-mode competition, whose entries are teams; null for a player." }),
    platform_account_id: z.number().int().optional().meta({ description: "Additive, CTFd-hosted competitions only: the account's id in CTFd." }),
    name: z.string().meta({ description: "The player's display name (never the address), the team's name in teams mode; on CTFd, the account's name." }),
    score: z.number().int().meta({ description: "Points of solved challenges (a dynamic challenge at its current value) minus the costs of unlocked hints (on CTFd, CTFd's score)." }),
    solves: z.number().int(),
    last_solve_at: z.string().nullable(),
    first_blood: z.array(z.string()).meta({ description: "Additive: the challenges (ids) this player or team solved first, in the order solved." }),
  })
  .meta({ id: "ScoreboardEntry" });
export type ScoreboardEntry = z.infer<typeof scoreboardEntry>;
export const scoreboardList = pageSchema(scoreboardEntry).meta({ id: "Scoreboard" });
export type Scoreboard = z.infer<typeof scoreboardList>;

const frozenAt = z
  .string()
  .nullable()
  .meta({ description: "Additive: when the competition's `freeze_at` has passed, that moment: the standings are as they were then (solves and hint unlocks before it, dynamic values as of then); null: live." });

/** The public page's scoreboard (`GET /api/c/{ctf_id}/scoreboard`): the page and whether it is frozen. */
export const publicScoreboardList = pageSchema(scoreboardEntry).extend({ frozen_at: frozenAt }).meta({ id: "PublicScoreboard" });
export type PublicScoreboard = z.infer<typeof publicScoreboardList>;

/** `GET /api/c/{ctf_id}/scoreboard/graph`: the top ten's scores over time. */
export const scoreGraph = z
  .object({
    frozen_at: frozenAt,
    series: z
      .array(
        z.object({
          pos: z.number().int(),
          member_id: z.string().nullable(),
          team_id: z.string().nullable(),
          name: z.string(),
          score: z.number().int().meta({ description: "The score on the scoreboard (the last step's)." }),
          steps: z
            .array(z.object({ at: z.string().meta({ description: "When (UTC)." }), score: z.number().int().meta({ description: "The score from then on." }) }))
            .meta({ description: "Oldest first: the start (0 at `starts_at`), then one step per solve (+ the challenge's current value) and hint unlock (− its cost)." }),
        }),
      )
      .meta({ description: "The top ten of the scoreboard, in its order." }),
  })
  .meta({ id: "ScoreGraph" });
export type ScoreGraph = z.infer<typeof scoreGraph>;

/** `GET /api/v1/ctfs/{ctf_id}/hint-unlocks`: who unlocked what, for the organiser. */
export const hintUnlockRecord = z
  .object({
    member_id: z.string(),
    name: z.string().meta({ description: "The player's display name." }),
    challenge_id: z.string(),
    hint: z.number().int().meta({ description: "Position of the hint, from 1." }),
    cost: z.number().int().meta({ description: "What it cost when unlocked." }),
    unlocked_at: z.string(),
  })
  .meta({ id: "HintUnlockRecord" });
export type HintUnlockRecord = z.infer<typeof hintUnlockRecord>;
export const hintUnlockList = pageSchema(hintUnlockRecord).meta({ id: "HintUnlockList" });

/** CTFtime's scoreboard feed format (`GET /api/v1/ctfs/{ctf_id}/scoreboard/ctftime`); its names, its camelCase. */
export const ctftimeFeed = z
  .object({
    tasks: z.array(z.string()).meta({ description: "The published challenges' titles." }),
    standings: z.array(
      z.object({
        pos: z.number().int().meta({ description: "Position, from 1, as on the scoreboard." }),
        team: z.string().meta({ description: "The player's display name; the team's name in teams mode." }),
        score: z.number().int(),
        taskStats: z
          .record(z.string(), z.object({ points: z.number().int(), time: z.number().int().meta({ description: "When it was solved, Unix seconds." }) }))
          .meta({ description: "The player's solves, by challenge title." }),
        lastAccept: z.number().int().meta({ description: "The last solve, Unix seconds; 0 when none." }),
      }),
    ),
  })
  .meta({ id: "CtftimeFeed" });
export type CtftimeFeed = z.infer<typeof ctftimeFeed>;

/** The display name asked when an invitation is accepted (default: the address before `@`). */
export const playerNameInput = z.string().trim().max(40, "At most 40 characters.").optional();
