import { readJson } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { requestGeneratedChallenge } from "@/lib/ctf/challenges";
import { generateChallengeInput } from "@/lib/ctf/schemas";

// POST /api/app/ctfs/{ctf_id}/challenges/generate – asynchronous: a challenge from the shipped templates (dashboard)
export const POST = withSession<{ ctf_id: string }>(async ({ req, params, db, workspace }) =>
  Response.json(await requestGeneratedChallenge(db, workspace.id, params.ctf_id, await readJson(req, generateChallengeInput)), { status: 202 }),
);
