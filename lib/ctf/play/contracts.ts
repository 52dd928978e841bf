import { z } from "zod";
import { contract, intParam } from "@/lib/kernel/contract";
import { pagingQuery } from "@/lib/kernel/paging";
import { ctfParams } from "@/lib/ctf/competitions/contracts";
import { inviteMemberInput } from "@/lib/ctf/competitions/schemas";
import { ctftimeFeed, flagAttemptInput, flagAttemptView, hintUnlockList, hintUnlockView, publicScoreboardList, scoreboardList, scoreGraph } from "./schemas";
import { challengeParams } from "@/lib/ctf/competitions/contracts";


const notRunning = "409 `conflict` when the competition is not running (not deployed, before `starts_at`, from `ends_at`); the message gives the time.";
const gated = "Additive: 409 `conflict` in teams mode before the player has a team (`Create or join a team first…`), and for a challenge whose prerequisites (`requires`) the player or their team has not all solved (`Locked: solve “…” first.`).";

/** Playing a competition: the players' routes (their cookie) and the scoreboard (API and public page). */
export const playContracts = {
  scoreboard: contract({
    id: "ctfs.scoreboard",
    method: "GET",
    path: "/api/v1/ctfs/{ctf_id}/scoreboard",
    caller: "workspace",
    scope: "ctf:read",
    params: ctfParams,
    query: pagingQuery,
    status: 200,
    response: scoreboardList,
    docs: {
      tag: "Competitions",
      summary: "A competition's scoreboard",
      description:
        "Every joined player (every team, in teams mode) by score (points of solved challenges, a dynamic challenge at its current value, minus the costs of unlocked hints); ties go to who reached the score first. Live, never frozen. `first_blood`: the challenges each entry solved first. Positions are distinct. Players appear by display name, never by address. On a CTFd-hosted competition, CTFd's own scoreboard (`/api/v1/scoreboard`) with the solves of this competition's challenges; its accounts are matched to members by address (`member_id` null for one no member matches, `platform_account_id` CTFd's id); CTFd failing → 503. Once archived: the snapshot's final scoreboard.",
    },
  }),
  ctftime: contract({
    id: "ctfs.scoreboard.ctftime",
    method: "GET",
    path: "/api/v1/ctfs/{ctf_id}/scoreboard/ctftime",
    caller: "workspace",
    scope: "ctf:read",
    params: ctfParams,
    status: 200,
    response: ctftimeFeed,
    docs: {
      tag: "Competitions",
      summary: "The scoreboard as CTFtime's feed",
      description:
        "CTFtime's scoreboard feed format, for the organiser to hand to CTFtime: `tasks` (the published challenges' titles) and `standings` (every player, or every team in teams mode, in scoreboard order: `pos`, `team` (the display name, or the team's name), `score`, `taskStats` by title with `points` and `time`, and `lastAccept`; times in Unix seconds). Frozen like the public scoreboard once `freeze_at` has passed. Public competitions only: 409 otherwise.",
      errors: [409],
    },
  }),
  hintUnlocks: contract({
    id: "ctfs.hint-unlocks",
    method: "GET",
    path: "/api/v1/ctfs/{ctf_id}/hint-unlocks",
    caller: "workspace",
    scope: "ctf:read",
    params: ctfParams,
    query: pagingQuery,
    status: 200,
    response: hintUnlockList,
    docs: {
      tag: "Competitions",
      summary: "Who unlocked which hint",
      description: "Every hint a player unlocked in the competition, newest first: the player (id and display name), the challenge, the hint's position from 1, what it cost and when.",
    },
  }),
  publicScoreboard: contract({
    id: "play.scoreboard",
    method: "GET",
    path: "/api/c/{ctf_id}/scoreboard",
    caller: "public",
    params: ctfParams,
    query: pagingQuery,
    status: 200,
    response: publicScoreboardList,
    docs: {
      tag: "Public pages",
      summary: "The scoreboard of a competition's page",
      description:
        "As `GET /api/v1/ctfs/{ctf_id}/scoreboard`: a deployed competition's live one (the page polls it; on CTFd, reads are shared for 15 s), an archived competition's final one from its snapshot; any other state → 404. Once the competition's `freeze_at` has passed (built-in host, until archived), the standings as of then, and `frozen_at` (additive) says so; the organiser's route stays live.",
    },
  }),
  attempt: contract({
    id: "play.attempts.create",
    method: "POST",
    path: "/api/c/{ctf_id}/challenges/{challenge_id}/attempts",
    caller: "player",
    params: challengeParams,
    body: flagAttemptInput,
    status: 200,
    response: flagAttemptView,
    docs: {
      tag: "Players",
      summary: "Submit a flag",
      description: `\`correct\` (a solve, once), \`incorrect\` or \`already_solved\`, with the points earned and the player's score (once \`freeze_at\` has passed, both with dynamic challenges at their values as of the freeze, so nothing tells of solves since). At most 10 submissions per challenge per sliding minute while unsolved, and for the whole competition, all players together, 600 (\`FLAG_ATTEMPTS_PER_COMPETITION\`): past that 429 with \`Retry-After\`, whatever the flag. Another competition's challenge → 404. ${notRunning} ${gated} A challenge whose \`max_attempts\` wrong flags were used (by the player or their team) → 409 \`Closed: …\` naming the cap (an earlier solve still answers \`already_solved\`).`,
      errors: [409, 429],
    },
  }),
  unlockHint: contract({
    id: "play.hints.unlock",
    method: "POST",
    path: "/api/c/{ctf_id}/challenges/{challenge_id}/hints/{n}/unlock",
    caller: "player",
    params: challengeParams.extend({ n: intParam("Hint") }),
    status: 200,
    response: hintUnlockView,
    docs: {
      tag: "Players",
      summary: "Unlock a hint",
      description: `The hint's text (position \`n\` from 1), its cost deducted from the score once (unlocking again costs nothing; free hints too; in teams mode once per team); the score counts dynamic challenges as of the freeze once \`freeze_at\` has passed. ${notRunning} ${gated}`,
      errors: [409],
    },
  }),
  resendLink: contract({
    id: "play.link",
    method: "POST",
    path: "/api/c/{ctf_id}/link",
    caller: "public",
    params: ctfParams,
    body: inviteMemberInput,
    status: 202,
    response: z.object({ status: z.literal("sent"), message: z.string() }),
    docs: {
      tag: "Public pages",
      summary: "Send me my link again",
      description:
        "The form of a deployed competition's page: a member (invited or joined) gets their own link by e-mail, which signs them in again. Same-origin only; the public mail limits apply (3 per address, 60 per client per hour); the answer is the same whether or not anything was sent (no enumeration).",
    },
  }),
};

/** Appended (issue 27): the score graph of a competition's page. */
export const scoreGraphContracts = {
  scoreGraph: contract({
    id: "play.scoreboard.graph",
    method: "GET",
    path: "/api/c/{ctf_id}/scoreboard/graph",
    caller: "public",
    params: ctfParams,
    status: 200,
    response: scoreGraph,
    docs: {
      tag: "Public pages",
      summary: "The top ten's scores over time",
      description:
        "The first ten of the public scoreboard (players, or teams in teams mode), each with `steps`: 0 at `starts_at`, then the score after each solve (+ the challenge's current value, a dynamic one's as of now or the freeze) and hint unlock (− its cost), oldest first, so the last step is the score on the board. Frozen like `GET /api/c/{ctf_id}/scoreboard` (`frozen_at`); an archived competition's from its snapshot (solves only); on CTFd, from CTFd's solves. Any state but deployed or archived → 404.",
    },
  }),
};
