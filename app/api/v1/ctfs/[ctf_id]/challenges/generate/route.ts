import { otherMethods } from "@/lib/platform/http/unrouted";
import { requestGeneratedChallenge } from "@/lib/ctf/challenges/challenges";
import { ctfContracts as ctfs } from "@/lib/ctf/competitions/contracts";
import { handle } from "@/lib/registry/handle";

export const POST = handle(ctfs.generateChallenge, ({ db, workspaceId, params, body }) => requestGeneratedChallenge(db, workspaceId, params.ctf_id, body));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
