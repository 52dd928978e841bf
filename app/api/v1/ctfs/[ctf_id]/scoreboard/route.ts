import { otherMethods } from "@/lib/platform/http/unrouted";
import { playContracts as play } from "@/lib/ctf/play/contracts";
import { workspaceScoreboard } from "@/lib/ctf/play/standings";
import { handle } from "@/lib/registry/handle";

// GET /api/v1/ctfs/{ctf_id}/scoreboard – the competition's scoreboard
export const GET = handle(play.scoreboard, ({ db, workspaceId, params, query }) => workspaceScoreboard(db, workspaceId, params.ctf_id, query));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
