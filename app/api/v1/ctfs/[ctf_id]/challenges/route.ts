import { pagingQuery } from "@/lib/api/paging";
import { readJson, readQuery } from "@/lib/api/parse";
import { json, withApiKey } from "@/lib/api/with-api-key";
import { createChallenge, listChallenges } from "@/lib/ctf/challenges";
import { createChallengeInput } from "@/lib/ctf/schemas";

type Params = { ctf_id: string };

// GET /api/v1/ctfs/{ctf_id}/challenges
export const GET = withApiKey<Params>(async ({ req, params, db, workspaceId }) => json(await listChallenges(db, workspaceId, params.ctf_id, readQuery(req, pagingQuery))), {
  scope: "ctf:read",
});

// POST /api/v1/ctfs/{ctf_id}/challenges – create a challenge (flag stored hashed)
export const POST = withApiKey<Params>(
  async ({ req, params, db, workspaceId }) => json(await createChallenge(db, workspaceId, params.ctf_id, await readJson(req, createChallengeInput)), 201),
  { scope: "ctf:write" },
);
