import { otherMethods } from "@/lib/platform/http/unrouted";
import { deleteChallenge, getChallenge, updateChallenge } from "@/lib/ctf/challenges/challenges";
import { ctfContracts as ctfs } from "@/lib/ctf/competitions/contracts";
import { handle } from "@/lib/registry/handle";

export const GET = handle(ctfs.challenge, ({ db, workspaceId, params }) => getChallenge(db, workspaceId, params.ctf_id, params.challenge_id));
export const PATCH = handle(ctfs.updateChallenge, ({ db, workspaceId, params, body }) => updateChallenge(db, workspaceId, params.ctf_id, params.challenge_id, body));
export const DELETE = handle(ctfs.deleteChallenge, ({ db, workspaceId, params }) => deleteChallenge(db, workspaceId, params.ctf_id, params.challenge_id));
export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
