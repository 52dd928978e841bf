import { pagingQuery } from "@/lib/api/paging";
import { readJson, readQuery } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { createCtf, listCtfs } from "@/lib/ctf/competitions";
import { createCtfInput } from "@/lib/ctf/schemas";

// GET /api/app/ctfs – the workspace's competitions, newest first, with challenge and member counts (dashboard)
export const GET = withSession(async ({ req, db, workspace }) => Response.json(await listCtfs(db, workspace.id, readQuery(req, pagingQuery))));

// POST /api/app/ctfs – create a competition (a draft) (dashboard)
export const POST = withSession(async ({ req, db, workspace }) =>
  Response.json(await createCtf(db, workspace.id, await readJson(req, createCtfInput)), { status: 201 }),
);
