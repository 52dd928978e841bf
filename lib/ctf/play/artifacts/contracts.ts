import { contract, textParam } from "@/lib/kernel/contract";
import { playerArtifactView, revealInput, revealView, targetQuery } from "./schemas";
import { challengeParams } from "@/lib/ctf/competitions/contracts";

const notRunning = "409 `conflict` when the competition is not running (not deployed, before `starts_at`, from `ends_at`), and (additive) when the challenge is locked for the player or their team (`Locked: solve “…” first.`).";

/** Generated challenges: what their players work on (their cookie), and the organiser's reveal. */
export const artifactContracts = {
  reveal: contract({
    id: "challenges.reveal",
    method: "POST",
    path: "/api/v1/ctfs/{ctf_id}/challenges/{challenge_id}/reveal",
    caller: "workspace",
    scope: "ctf:write",
    params: challengeParams,
    body: revealInput,
    status: 200,
    response: revealView,
    docs: {
      tag: "Challenges",
      summary: "Reveal a generated challenge's flag and solution",
      description:
        "A deliberate request (`confirm: true`, else 422): the generated flag and the template's solution steps, never part of any read. Each reveal's time is kept. A challenge written by hand keeps its flag unreadable, and a `generating` one has none yet: 409.",
      errors: [409],
    },
  }),
  artifact: contract({
    id: "play.artifact",
    method: "GET",
    path: "/api/c/{ctf_id}/challenges/{challenge_id}/artifact",
    caller: "player",
    params: challengeParams,
    status: 200,
    response: playerArtifactView,
    docs: {
      tag: "Players",
      summary: "What a generated challenge gives its players",
      description: `Its file (name, type, size, download URL) and its web target (first page's URL); both null for a challenge written by hand. A published challenge of the player's competition only (else 404). ${notRunning}`,
      errors: [409],
    },
  }),
  artifactFile: contract({
    id: "play.artifact.file",
    method: "GET",
    path: "/api/c/{ctf_id}/challenges/{challenge_id}/artifact/file",
    caller: "player",
    params: challengeParams,
    status: 200,
    produces: "application/octet-stream",
    docs: {
      tag: "Players",
      summary: "Download a generated challenge's file",
      description: `The bytes, as an attachment (\`Content-Disposition: attachment\`, \`X-Content-Type-Options: nosniff\`, always \`application/octet-stream\`: the browser never renders it). No file → 404. ${notRunning}`,
      errors: [409],
    },
  }),
  target: contract({
    id: "play.target",
    method: "GET",
    path: "/api/c/{ctf_id}/challenges/{challenge_id}/target/{page}",
    caller: "player",
    params: challengeParams.extend({ page: textParam("Page", "The target's page (`index` first; each page links the others).") }),
    query: targetQuery,
    status: 200,
    produces: "text/plain",
    docs: {
      tag: "Players",
      summary: "A generated challenge's web target",
      description: `One page of the small web application a web, OSINT, offsec or binary-exploitation template serves: plain text (sandboxed, never HTML), or a 302 to another of its pages; its refusals (a forged cookie that fails, a wrong password) use the error shape. Unknown page → 404. ${notRunning}`,
      errors: [403, 409],
    },
  }),
};
