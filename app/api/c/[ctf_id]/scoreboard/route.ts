import { otherMethods } from "@/lib/platform/http/unrouted";
import { playContracts as play } from "@/lib/ctf/play/contracts";
import { publicScoreboard } from "@/lib/ctf/play/standings";
import { handle } from "@/lib/registry/handle";

// The live scoreboard the public competition page polls (names only).
export const GET = handle(play.publicScoreboard, ({ db, params, query }) => publicScoreboard(db, params.ctf_id, query));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
