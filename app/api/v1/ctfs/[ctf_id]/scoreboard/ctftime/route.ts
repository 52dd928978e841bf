import { otherMethods } from "@/lib/platform/http/unrouted";
import { ctftimeFeed } from "@/lib/ctf/play/ctftime";
import { playContracts as play } from "@/lib/ctf/play/contracts";
import { handle } from "@/lib/registry/handle";

// GET /api/v1/ctfs/{ctf_id}/scoreboard/ctftime – the scoreboard in CTFtime's feed format
export const GET = handle(play.ctftime, ({ db, workspaceId, params }) => ctftimeFeed(db, workspaceId, params.ctf_id));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
