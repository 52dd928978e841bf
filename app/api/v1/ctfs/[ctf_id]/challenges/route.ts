import { otherMethods } from "@/lib/platform/http/unrouted";
import { createChallenge, listChallenges } from "@/lib/ctf/challenges/challenges";
import { ctfContracts as ctfs } from "@/lib/ctf/competitions/contracts";
import { handle } from "@/lib/registry/handle";

export const GET = handle(ctfs.challenges, ({ db, workspaceId, params, query }) => listChallenges(db, workspaceId, params.ctf_id, query));
export const POST = handle(ctfs.createChallenge, ({ db, workspaceId, params, body }) => createChallenge(db, workspaceId, params.ctf_id, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
