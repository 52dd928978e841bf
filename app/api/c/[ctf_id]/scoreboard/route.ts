import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { playContracts as play } from "@/lib/ctf/play-contracts";
import { publicScoreboard } from "@/lib/ctf/standings";

// The live scoreboard the public competition page polls (names only).
export const GET = handle(play.publicScoreboard, ({ db, params, query }) => publicScoreboard(db, params.ctf_id, query));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
