import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { ctfs } from "@/db/schema";
import { createTeam } from "@/lib/ctf/teams/teams";
import type { Trainer } from "../fixtures";
import { playerOf, runningCtf } from "./play";
import type { Samples } from "./types";

/** A running competition of `trainer` in teams mode. */
async function teamsCtf(db: Db, trainer: Trainer) {
  const ctfId = await runningCtf(db, trainer);
  await db.update(ctfs).set({ mode: "teams" }).where(eq(ctfs.id, ctfId));
  return ctfId;
}

/** A teams-mode competition with one team (its creator a player): its ids and invite code. */
async function ctfWithTeam(db: Db, trainer: Trainer) {
  const ctf_id = await teamsCtf(db, trainer);
  const creator = await playerOf(db, trainer, ctf_id);
  const team = await createTeam(db, { ctfId: ctf_id, memberId: creator.memberId }, { name: `Team ${Math.random().toString(36).slice(2, 10)}` });
  return { ctf_id, team_id: team.id, member_id: creator.memberId, invite_code: team.invite_code };
}

/** A teamless player's cookie and the competition's invite code, by competition. */
const cookies = new Map<string, string>();
const inviteCodes = new Map<string, string>();

export const teamSamples: Samples = {
  "play.teams.create": {
    params: async ({ db }, trainer) => {
      const ctf_id = await teamsCtf(db, trainer);
      cookies.set(ctf_id, (await playerOf(db, trainer, ctf_id)).cookie);
      return { ctf_id };
    },
    body: () => ({ name: `Team ${Math.random().toString(36).slice(2, 10)}` }),
    cookie: (params) => cookies.get(params.ctf_id),
  },
  "play.teams.join": {
    params: async ({ db }, trainer) => {
      const { ctf_id, invite_code } = await ctfWithTeam(db, trainer);
      inviteCodes.set(ctf_id, invite_code);
      cookies.set(ctf_id, (await playerOf(db, trainer, ctf_id)).cookie);
      return { ctf_id };
    },
    body: (_world, _trainer, params) => ({ invite_code: inviteCodes.get(params.ctf_id) }),
    cookie: (params) => cookies.get(params.ctf_id),
  },
  "play.team": {
    params: async ({ db }, trainer) => {
      const ctf_id = await teamsCtf(db, trainer);
      cookies.set(ctf_id, (await playerOf(db, trainer, ctf_id)).cookie);
      return { ctf_id };
    },
    cookie: (params) => cookies.get(params.ctf_id),
  },
  "ctfs.teams.list": { params: async ({ db }, trainer) => ({ ctf_id: (await ctfWithTeam(db, trainer)).ctf_id }) },
  "ctfs.teams.update": {
    params: async ({ db }, trainer) => {
      const { ctf_id, team_id } = await ctfWithTeam(db, trainer);
      return { ctf_id, team_id };
    },
    body: () => ({ name: `Renamed ${Math.random().toString(36).slice(2, 10)}` }),
  },
  "ctfs.teams.delete": {
    params: async ({ db }, trainer) => {
      const { ctf_id, team_id } = await ctfWithTeam(db, trainer);
      return { ctf_id, team_id };
    },
  },
  "ctfs.teams.members.delete": {
    params: async ({ db }, trainer) => {
      const { ctf_id, team_id, member_id } = await ctfWithTeam(db, trainer);
      return { ctf_id, team_id, member_id };
    },
  },
};
