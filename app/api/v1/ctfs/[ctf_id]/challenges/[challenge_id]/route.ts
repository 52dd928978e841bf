import { readJson } from "@/lib/api/parse";
import { json, withApiKey } from "@/lib/api/with-api-key";
import { deleteChallenge, getChallenge, updateChallenge } from "@/lib/ctf/challenges";
import { updateChallengeInput } from "@/lib/ctf/schemas";

type Params = { ctf_id: string; challenge_id: string };

// GET /api/v1/ctfs/{ctf_id}/challenges/{challenge_id}
export const GET = withApiKey<Params>(async ({ params, db, workspaceId }) => json(await getChallenge(db, workspaceId, params.ctf_id, params.challenge_id)), {
  scope: "ctf:read",
});

// PATCH /api/v1/ctfs/{ctf_id}/challenges/{challenge_id} – while not published
export const PATCH = withApiKey<Params>(
  async ({ req, params, db, workspaceId }) =>
    json(await updateChallenge(db, workspaceId, params.ctf_id, params.challenge_id, await readJson(req, updateChallengeInput))),
  { scope: "ctf:write" },
);

// DELETE /api/v1/ctfs/{ctf_id}/challenges/{challenge_id} – while not published
export const DELETE = withApiKey<Params>(async ({ params, db, workspaceId }) => json(await deleteChallenge(db, workspaceId, params.ctf_id, params.challenge_id)), {
  scope: "ctf:write",
});
