import { json, withApiKey } from "@/lib/api/with-api-key";
import { publishChallenge } from "@/lib/ctf/challenges";

// POST /api/v1/ctfs/{ctf_id}/challenges/{challenge_id}/publish – asynchronous, through the hosting platform, then challenge.published
export const POST = withApiKey<{ ctf_id: string; challenge_id: string }>(
  async ({ params, db, workspaceId }) => json(await publishChallenge(db, workspaceId, params.ctf_id, params.challenge_id), 202),
  { scope: "ctf:write" },
);
