import { handle } from "@/lib/api/handle";
import { requestGeneratedChallenge } from "@/lib/ctf/challenges";
import { ctfContracts as ctfs } from "@/lib/ctf/contracts";

export const POST = handle(ctfs.generateChallenge, ({ db, workspaceId, params, body }) => requestGeneratedChallenge(db, workspaceId, params.ctf_id, body));
