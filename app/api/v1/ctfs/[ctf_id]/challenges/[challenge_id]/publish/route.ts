import { handle } from "@/lib/api/handle";
import { publishChallenge } from "@/lib/ctf/challenges";
import { ctfContracts as ctfs } from "@/lib/ctf/contracts";

export const POST = handle(ctfs.publish, ({ db, workspaceId, params }) => publishChallenge(db, workspaceId, params.ctf_id, params.challenge_id));
