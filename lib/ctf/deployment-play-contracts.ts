import { contract, intParam } from "@/lib/api/contract";
import { pagingQuery } from "@/lib/api/paging";
import { deploymentParams } from "./contracts";
import { deploymentJoinInput, deploymentPlayerView, deploymentSolveList } from "./deployment-play-schemas";
import { flagAttemptInput, flagAttemptView, hintUnlockView } from "./play-schemas";

const notLive = "409 `conflict` when the deployment is not live (being deployed, failed, stopped, or past `ends_at`); the message says which, with the time.";

/** Playing a standalone deployment (`/d/{deployment_id}`): its page's routes, and the organiser's read of its solves. */
export const deploymentPlayContracts = {
  join: contract({
    id: "deployment-play.join",
    method: "POST",
    path: "/api/d/{deployment_id}/join",
    caller: "public",
    params: deploymentParams,
    body: deploymentJoinInput,
    status: 201,
    response: deploymentPlayerView,
    docs: {
      tag: "Public pages",
      summary: "Play a standalone deployment",
      description: `Whoever has the link plays under a display name: a new player of this deployment, signed in by the HttpOnly cookie \`dep_player_{deployment_id}\` set by this answer (entering a name again makes another player). At most 60 per client address per deployment per hour (429). Same-origin only. ${notLive}`,
      errors: [409, 429],
    },
  }),
  attempt: contract({
    id: "deployment-play.attempts.create",
    method: "POST",
    path: "/api/d/{deployment_id}/attempts",
    caller: "deployment_player",
    params: deploymentParams,
    body: flagAttemptInput,
    status: 200,
    response: flagAttemptView,
    docs: {
      tag: "Players",
      summary: "Submit a flag for a standalone deployment",
      description: `As a competition's attempts: \`correct\` (a solve, once), \`incorrect\` or \`already_solved\`, the points earned and the player's score. At most 10 submissions per player per sliding minute while unsolved, and 120 per client address per deployment: past that 429 with \`Retry-After\`, whatever the flag. ${notLive}`,
      errors: [409, 429],
    },
  }),
  unlockHint: contract({
    id: "deployment-play.hints.unlock",
    method: "POST",
    path: "/api/d/{deployment_id}/hints/{n}/unlock",
    caller: "deployment_player",
    params: deploymentParams.extend({ n: intParam("Hint") }),
    status: 200,
    response: hintUnlockView,
    docs: {
      tag: "Players",
      summary: "Unlock a hint of a standalone deployment",
      description: `The hint's text (position \`n\` from 1), its cost deducted from the player's score once. ${notLive}`,
      errors: [409],
    },
  }),
  solves: contract({
    id: "deployments.solves",
    method: "GET",
    path: "/api/v1/deployments/{deployment_id}/solves",
    caller: "workspace",
    scope: "ctf:read",
    params: deploymentParams,
    query: pagingQuery,
    status: 200,
    response: deploymentSolveList,
    docs: {
      tag: "Deployments",
      summary: "Who solved a standalone deployment",
      description: "Its players' solves, first solver first: `player_id`, `name` (the display name given), `points`, `hints_cost`, `score` (points − hints_cost), `attempts` (flags up to the correct one) and `solved_at`.",
    },
  }),
};
