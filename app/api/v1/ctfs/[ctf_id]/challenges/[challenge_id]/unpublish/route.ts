import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { unpublishChallenge } from "@/lib/ctf/challenges";
import { ctfContracts as ctfs } from "@/lib/ctf/contracts";

export const POST = handle(ctfs.unpublish, ({ db, workspaceId, params }) => unpublishChallenge(db, workspaceId, params.ctf_id, params.challenge_id));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
