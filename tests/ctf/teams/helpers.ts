import { eq } from "drizzle-orm";
import * as teamsRoute from "@/app/api/c/[ctf_id]/teams/route";
import * as joinRoute from "@/app/api/c/[ctf_id]/teams/join/route";
import * as teamRoute from "@/app/api/c/[ctf_id]/team/route";
import * as listRoute from "@/app/api/v1/ctfs/[ctf_id]/teams/route";
import * as oneRoute from "@/app/api/v1/ctfs/[ctf_id]/teams/[team_id]/route";
import * as memberRoute from "@/app/api/v1/ctfs/[ctf_id]/teams/[team_id]/members/[member_id]/route";
import type { Db } from "@/db";
import { challenges, ctfs, type ChallengeScoring } from "@/db/schema";
import { call } from "../../helpers/http";
import { sameOrigin } from "../../helpers/competition";
import type { Trainer } from "../../helpers/fixtures";
import { publishedChallenge, runningCtf } from "../../helpers/samples/play";

/** A running competition in teams mode (`team_size_max` as given, null by default). */
export async function teamsCtf(db: Db, trainer: Trainer, teamSizeMax: number | null = null, window?: { startsAt?: Date; endsAt?: Date }) {
  const ctfId = await runningCtf(db, trainer, window);
  await db.update(ctfs).set({ mode: "teams", teamSizeMax }).where(eq(ctfs.id, ctfId));
  return ctfId;
}

/** A published challenge with the issue-27 settings written directly (whatever the challenge form accepts yet). */
export async function gatedChallenge(
  db: Db,
  trainer: Trainer,
  ctfId: string,
  overrides: Record<string, unknown>,
  settings: { requires?: string[]; maxAttempts?: number | null; scoring?: ChallengeScoring } = {},
) {
  const id = await publishedChallenge(db, trainer, ctfId, overrides);
  if (Object.keys(settings).length) await db.update(challenges).set(settings).where(eq(challenges.id, id));
  return id;
}

const player = (cookie: string) => ({ ...sameOrigin, cookie });

export const teamsApi = {
  create: (cookie: string, ctfId: string, body: unknown) => call(teamsRoute.POST, `/api/c/${ctfId}/teams`, { method: "POST", params: { ctf_id: ctfId }, body, headers: player(cookie) }),
  join: (cookie: string, ctfId: string, body: unknown) => call(joinRoute.POST, `/api/c/${ctfId}/teams/join`, { method: "POST", params: { ctf_id: ctfId }, body, headers: player(cookie) }),
  mine: (cookie: string, ctfId: string) => call(teamRoute.GET, `/api/c/${ctfId}/team`, { params: { ctf_id: ctfId }, headers: player(cookie) }),
  list: (key: string, ctfId: string) => call(listRoute.GET, `/api/v1/ctfs/${ctfId}/teams`, { key, params: { ctf_id: ctfId } }),
  rename: (key: string, ctfId: string, teamId: string, body: unknown) =>
    call(oneRoute.PATCH, `/api/v1/ctfs/${ctfId}/teams/${teamId}`, { method: "PATCH", key, params: { ctf_id: ctfId, team_id: teamId }, body }),
  remove: (key: string, ctfId: string, teamId: string) => call(oneRoute.DELETE, `/api/v1/ctfs/${ctfId}/teams/${teamId}`, { method: "DELETE", key, params: { ctf_id: ctfId, team_id: teamId } }),
  removeMember: (key: string, ctfId: string, teamId: string, memberId: string) =>
    call(memberRoute.DELETE, `/api/v1/ctfs/${ctfId}/teams/${teamId}/members/${memberId}`, { method: "DELETE", key, params: { ctf_id: ctfId, team_id: teamId, member_id: memberId } }),
};
