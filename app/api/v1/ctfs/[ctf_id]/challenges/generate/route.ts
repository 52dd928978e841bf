import { otherMethods } from "@/lib/platform/http/unrouted";
import { requestGeneratedChallenge } from "@/lib/ctf/challenges/challenges";
import { handle } from "@/lib/registry/handle";
import { challengeContracts } from "@/lib/ctf/challenges/contracts";

export const POST = handle(challengeContracts.generateChallenge, ({ db, workspaceId, params, body }) => requestGeneratedChallenge(db, workspaceId, params.ctf_id, body));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
