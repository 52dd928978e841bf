import { otherMethods } from "@/lib/platform/http/unrouted";
import { workspaceContracts as workspaces } from "@/lib/platform/workspaces/contracts";
import { answerWelcome } from "@/lib/platform/workspaces/welcome";
import { handle } from "@/lib/registry/handle";

// POST /api/app/welcome – answer (or skip) the first sign-in's welcome step
export const POST = handle(workspaces.welcome, ({ db, workspaceId, body }) => answerWelcome(db, workspaceId, body));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
