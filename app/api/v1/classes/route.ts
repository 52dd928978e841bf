import { pagingQuery } from "@/lib/api/paging";
import { readJson, readQuery } from "@/lib/api/parse";
import { json, withApiKey } from "@/lib/api/with-api-key";
import { createClass, listClasses } from "@/lib/classes/classes";
import { createClassInput } from "@/lib/classes/schemas";

// GET /api/v1/classes – the workspace's classes
export const GET = withApiKey(async ({ req, db, workspaceId }) => json(await listClasses(db, workspaceId, readQuery(req, pagingQuery))));

// POST /api/v1/classes – create a class and e-mail its invitations
export const POST = withApiKey(
  async ({ req, db, workspaceId }) => json(await createClass(db, workspaceId, await readJson(req, createClassInput)), 201),
  { creation: true },
);
