import { json, withApiKey } from "@/lib/api/with-api-key";
import { unpublishChallenge } from "@/lib/ctf/challenges";

// POST /api/v1/ctfs/{ctf_id}/challenges/{challenge_id}/unpublish – asynchronous, through the hosting platform, then challenge.unpublished
export const POST = withApiKey<{ ctf_id: string; challenge_id: string }>(
  async ({ params, db, workspaceId }) => json(await unpublishChallenge(db, workspaceId, params.ctf_id, params.challenge_id), 202),
  { scope: "ctf:write" },
);
