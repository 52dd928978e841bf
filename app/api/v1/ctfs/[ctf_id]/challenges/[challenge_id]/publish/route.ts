import { otherMethods } from "@/lib/platform/http/unrouted";
import { publishChallenge } from "@/lib/ctf/challenges/challenges";
import { handle } from "@/lib/registry/handle";
import { challengeContracts } from "@/lib/ctf/challenges/contracts";

export const POST = handle(challengeContracts.publish, ({ db, workspaceId, params }) => publishChallenge(db, workspaceId, params.ctf_id, params.challenge_id));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
