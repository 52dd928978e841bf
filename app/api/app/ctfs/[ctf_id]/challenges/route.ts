import { pagingQuery } from "@/lib/api/paging";
import { readJson, readQuery } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { createChallenge, listChallenges } from "@/lib/ctf/challenges";
import { createChallengeInput } from "@/lib/ctf/schemas";

type Params = { ctf_id: string };

// GET /api/app/ctfs/{ctf_id}/challenges – the competition's challenges, newest first (dashboard)
export const GET = withSession<Params>(async ({ req, params, db, workspace }) =>
  Response.json(await listChallenges(db, workspace.id, params.ctf_id, readQuery(req, pagingQuery))),
);

// POST /api/app/ctfs/{ctf_id}/challenges – create a challenge (flag stored hashed, never returned) (dashboard)
export const POST = withSession<Params>(async ({ req, params, db, workspace }) =>
  Response.json(await createChallenge(db, workspace.id, params.ctf_id, await readJson(req, createChallengeInput)), { status: 201 }),
);
