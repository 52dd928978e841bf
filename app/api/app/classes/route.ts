import { pagingQuery } from "@/lib/api/paging";
import { readJson, readQuery } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { createClass, listClasses } from "@/lib/classes/classes";
import { createClassInput } from "@/lib/classes/schemas";

// GET /api/app/classes – the workspace's classes, newest first, with joined and pending counts (dashboard)
export const GET = withSession(async ({ req, db, workspace }) =>
  Response.json(await listClasses(db, workspace.id, readQuery(req, pagingQuery))),
);

// POST /api/app/classes – create a class and e-mail its invitations; 409 beyond the plan's classes or students (dashboard)
export const POST = withSession(async ({ req, db, workspace }) =>
  Response.json(await createClass(db, workspace.id, await readJson(req, createClassInput)), { status: 201 }),
);
