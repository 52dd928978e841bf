import { otherMethods } from "@/lib/platform/http/unrouted";
import { deleteChallenge, getChallenge, updateChallenge } from "@/lib/ctf/challenges/challenges";
import { handle } from "@/lib/registry/handle";
import { challengeContracts } from "@/lib/ctf/challenges/contracts";

export const GET = handle(challengeContracts.challenge, ({ db, workspaceId, params }) => getChallenge(db, workspaceId, params.ctf_id, params.challenge_id));
export const PATCH = handle(challengeContracts.updateChallenge, ({ db, workspaceId, params, body }) => updateChallenge(db, workspaceId, params.ctf_id, params.challenge_id, body));
export const DELETE = handle(challengeContracts.deleteChallenge, ({ db, workspaceId, params }) => deleteChallenge(db, workspaceId, params.ctf_id, params.challenge_id));
export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
