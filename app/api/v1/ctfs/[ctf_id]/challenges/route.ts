import { otherMethods } from "@/lib/platform/http/unrouted";
import { createChallenge, listChallenges } from "@/lib/ctf/challenges/challenges";
import { handle } from "@/lib/registry/handle";
import { challengeContracts } from "@/lib/ctf/challenges/contracts";

export const GET = handle(challengeContracts.challenges, ({ db, workspaceId, params, query }) => listChallenges(db, workspaceId, params.ctf_id, query));
export const POST = handle(challengeContracts.createChallenge, ({ db, workspaceId, params, body }) => createChallenge(db, workspaceId, params.ctf_id, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
