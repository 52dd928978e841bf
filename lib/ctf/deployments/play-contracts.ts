import { contract, intParam, prefixedParam, textParam } from "@/lib/kernel/contract";
import { pagingQuery } from "@/lib/kernel/paging";
import { playerArtifactView, targetQuery } from "@/lib/ctf/play/artifacts/schemas";
import { deploymentJoinInput, deploymentPlayerView, deploymentSolveList } from "./play-schemas";
import { flagAttemptInput, flagAttemptView, hintUnlockView } from "@/lib/ctf/play/schemas";
import { deploymentParams } from "./contracts";

const notLive = "409 `conflict` when the deployment is not live (being deployed, failed, stopped, or past `ends_at`); the message says which, with the time.";

/** Playing a standalone deployment (`/d/{deployment_id}`): its page's routes (joining, flags, hints, files, the generated artifact), and the organiser's read of its solves. */
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
      description: `As a competition's attempts: \`correct\` (a solve, once), \`incorrect\` or \`already_solved\`, the points earned and the player's score. At most 10 submissions per player per sliding minute while unsolved, 120 per client address per deployment, and for the whole deployment, all players together, 300 (\`FLAG_ATTEMPTS_PER_DEPLOYMENT\`): past that 429 with \`Retry-After\`, whatever the flag. ${notLive}`,
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
  fileDownload: contract({
    id: "deployment-play.files.download",
    method: "GET",
    path: "/api/d/{deployment_id}/files/{file_id}",
    caller: "deployment_player",
    params: deploymentParams.extend({ file_id: prefixedParam("fil", "File") }),
    status: 200,
    produces: "application/octet-stream",
    docs: {
      tag: "Players",
      summary: "Download a standalone deployment's file",
      description: `A file of the deployment's challenge, answered as a competition player's download (an attachment, a safe \`Content-Type\` or \`application/octet-stream\`, \`nosniff\`, a CSP sandbox, \`Repr-Digest\`). Another challenge's file or an unknown one → 404. ${notLive}`,
      errors: [409],
    },
  }),
  artifact: contract({
    id: "deployment-play.artifact",
    method: "GET",
    path: "/api/d/{deployment_id}/artifact",
    caller: "deployment_player",
    params: deploymentParams,
    status: 200,
    response: playerArtifactView,
    docs: {
      tag: "Players",
      summary: "What a standalone deployment's generated challenge gives its players",
      description: `As a competition's: its file (name, type, size, download URL \`/api/d/{deployment_id}/artifact/file\`) and its web target (\`/api/d/{deployment_id}/target/index\`); both null for a challenge written by hand. ${notLive}`,
      errors: [409],
    },
  }),
  artifactFile: contract({
    id: "deployment-play.artifact.file",
    method: "GET",
    path: "/api/d/{deployment_id}/artifact/file",
    caller: "deployment_player",
    params: deploymentParams,
    status: 200,
    produces: "application/octet-stream",
    docs: {
      tag: "Players",
      summary: "Download a standalone deployment's generated file",
      description: `The bytes, as an attachment (\`Content-Disposition: attachment\`, \`X-Content-Type-Options: nosniff\`, always \`application/octet-stream\`). No file → 404. ${notLive}`,
      errors: [409],
    },
  }),
  target: contract({
    id: "deployment-play.target",
    method: "GET",
    path: "/api/d/{deployment_id}/target/{page}",
    caller: "deployment_player",
    params: deploymentParams.extend({ page: textParam("Page", "The target's page (`index` first; each page links the others).") }),
    query: targetQuery,
    status: 200,
    produces: "text/plain",
    docs: {
      tag: "Players",
      summary: "A standalone deployment's web target",
      description: `As a competition's: one page of the generated challenge's web application, plain text (sandboxed, never HTML), or a 302 to another of its pages; its cookies are scoped to \`/api/d/{deployment_id}/target\`; its refusals use the error shape. No target or an unknown page → 404. ${notLive}`,
      errors: [403, 409],
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
