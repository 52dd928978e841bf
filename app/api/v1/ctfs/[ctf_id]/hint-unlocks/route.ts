import { otherMethods } from "@/lib/platform/http/unrouted";
import { listHintUnlocks } from "@/lib/ctf/play/hint-unlocks";
import { playContracts as play } from "@/lib/ctf/play/contracts";
import { handle } from "@/lib/registry/handle";

// GET /api/v1/ctfs/{ctf_id}/hint-unlocks – who unlocked which hint
export const GET = handle(play.hintUnlocks, ({ db, workspaceId, params, query }) => listHintUnlocks(db, workspaceId, params.ctf_id, query));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
