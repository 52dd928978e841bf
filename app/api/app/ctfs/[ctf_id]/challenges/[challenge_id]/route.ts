import { readJson } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { deleteChallenge, getChallenge, updateChallenge } from "@/lib/ctf/challenges";
import { updateChallengeInput } from "@/lib/ctf/schemas";

type Params = { ctf_id: string; challenge_id: string };

// GET /api/app/ctfs/{ctf_id}/challenges/{challenge_id} (dashboard)
export const GET = withSession<Params>(async ({ params, db, workspace }) =>
  Response.json(await getChallenge(db, workspace.id, params.ctf_id, params.challenge_id)),
);

// PATCH /api/app/ctfs/{ctf_id}/challenges/{challenge_id} – while not published (dashboard)
export const PATCH = withSession<Params>(async ({ req, params, db, workspace }) =>
  Response.json(await updateChallenge(db, workspace.id, params.ctf_id, params.challenge_id, await readJson(req, updateChallengeInput))),
);

// DELETE /api/app/ctfs/{ctf_id}/challenges/{challenge_id} – while not published (dashboard)
export const DELETE = withSession<Params>(async ({ params, db, workspace }) =>
  Response.json(await deleteChallenge(db, workspace.id, params.ctf_id, params.challenge_id)),
);
