import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { createChallenge, listChallenges } from "@/lib/ctf/challenges";
import { ctfContracts as ctfs } from "@/lib/ctf/contracts";

export const GET = handle(ctfs.challenges, ({ db, workspaceId, params, query }) => listChallenges(db, workspaceId, params.ctf_id, query));
export const POST = handle(ctfs.createChallenge, ({ db, workspaceId, params, body }) => createChallenge(db, workspaceId, params.ctf_id, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
