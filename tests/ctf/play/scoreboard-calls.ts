import * as publicScoreboardRoute from "@/app/api/c/[ctf_id]/scoreboard/route";
import * as graphRoute from "@/app/api/c/[ctf_id]/scoreboard/graph/route";
import * as archiveRoute from "@/app/api/v1/ctfs/[ctf_id]/archive/route";
import * as ctftimeRoute from "@/app/api/v1/ctfs/[ctf_id]/scoreboard/ctftime/route";
import * as scoreboardRoute from "@/app/api/v1/ctfs/[ctf_id]/scoreboard/route";
import { call } from "../../helpers/http";
import { expectStatus } from "../../helpers/competition";

/** The scoreboard's routes as the scoreboard tests call them (the organiser's with `key`; the public ones without credentials). */
export function boards(key: string) {
  return {
    organiser: async (ctfId: string) => expectStatus(await call(scoreboardRoute.GET, `/api/v1/ctfs/${ctfId}/scoreboard`, { key, params: { ctf_id: ctfId }, query: { per_page: 100 } }), 200),
    public: async (ctfId: string) => expectStatus(await call(publicScoreboardRoute.GET, `/api/c/${ctfId}/scoreboard`, { params: { ctf_id: ctfId }, query: { per_page: 100 } }), 200),
    graph: (ctfId: string) => call(graphRoute.GET, `/api/c/${ctfId}/scoreboard/graph`, { params: { ctf_id: ctfId } }),
    ctftime: async (ctfId: string) => expectStatus(await call(ctftimeRoute.GET, `/api/v1/ctfs/${ctfId}/scoreboard/ctftime`, { key, params: { ctf_id: ctfId } }), 200),
    archive: async (ctfId: string) => expectStatus(await call(archiveRoute.POST, `/api/v1/ctfs/${ctfId}/archive`, { method: "POST", key, params: { ctf_id: ctfId } }), 200),
  };
}

/** Names and scores of a board's entries, in its order. */
export const standingsOf = (board: { data: { name: string; score: number }[] }) => board.data.map((entry) => [entry.name, entry.score]);
