import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { requestGeneratedChallenge } from "@/lib/ctf/challenges";
import { ctfContracts as ctfs } from "@/lib/ctf/contracts";

export const POST = handle(ctfs.generateChallenge, ({ db, workspaceId, params, body }) => requestGeneratedChallenge(db, workspaceId, params.ctf_id, body));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
