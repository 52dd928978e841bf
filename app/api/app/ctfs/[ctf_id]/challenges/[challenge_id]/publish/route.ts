import { withSession } from "@/lib/auth/with-session";
import { publishChallenge } from "@/lib/ctf/challenges";

// POST /api/app/ctfs/{ctf_id}/challenges/{challenge_id}/publish – asynchronous, then challenge.published (dashboard)
export const POST = withSession<{ ctf_id: string; challenge_id: string }>(async ({ params, db, workspace }) =>
  Response.json(await publishChallenge(db, workspace.id, params.ctf_id, params.challenge_id), { status: 202 }),
);
