import { otherMethods } from "@/lib/platform/http/unrouted";
import { unpublishChallenge } from "@/lib/ctf/challenges/challenges";
import { ctfContracts as ctfs } from "@/lib/ctf/competitions/contracts";
import { handle } from "@/lib/registry/handle";

export const POST = handle(ctfs.unpublish, ({ db, workspaceId, params }) => unpublishChallenge(db, workspaceId, params.ctf_id, params.challenge_id));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
