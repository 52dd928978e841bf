import { otherMethods } from "@/lib/platform/http/unrouted";
import { publishChallenge } from "@/lib/ctf/challenges/challenges";
import { ctfContracts as ctfs } from "@/lib/ctf/competitions/contracts";
import { handle } from "@/lib/registry/handle";

export const POST = handle(ctfs.publish, ({ db, workspaceId, params }) => publishChallenge(db, workspaceId, params.ctf_id, params.challenge_id));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
