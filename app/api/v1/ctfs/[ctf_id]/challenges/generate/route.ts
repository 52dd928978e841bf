import { readJson } from "@/lib/api/parse";
import { json, withApiKey } from "@/lib/api/with-api-key";
import { requestGeneratedChallenge } from "@/lib/ctf/challenges";
import { generateChallengeInput } from "@/lib/ctf/schemas";

// POST /api/v1/ctfs/{ctf_id}/challenges/generate – asynchronous: a challenge from the shipped templates
export const POST = withApiKey<{ ctf_id: string }>(
  async ({ req, params, db, workspaceId }) => json(await requestGeneratedChallenge(db, workspaceId, params.ctf_id, await readJson(req, generateChallengeInput)), 202),
  { scope: "ctf:write" },
);
