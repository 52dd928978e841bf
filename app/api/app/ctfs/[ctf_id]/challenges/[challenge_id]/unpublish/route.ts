import { withSession } from "@/lib/auth/with-session";
import { unpublishChallenge } from "@/lib/ctf/challenges";

// POST /api/app/ctfs/{ctf_id}/challenges/{challenge_id}/unpublish – asynchronous, then challenge.unpublished (dashboard)
export const POST = withSession<{ ctf_id: string; challenge_id: string }>(async ({ params, db, workspace }) =>
  Response.json(await unpublishChallenge(db, workspace.id, params.ctf_id, params.challenge_id), { status: 202 }),
);
