import { pagingQuery } from "@/lib/api/paging";
import { readJson, readQuery } from "@/lib/api/parse";
import { json, withApiKey } from "@/lib/api/with-api-key";
import { createTestInput } from "@/lib/tests/schemas";
import { createTest, listTests } from "@/lib/tests/tests";

// GET /api/v1/tests – the workspace's tests, newest first, with completion counts
export const GET = withApiKey(async ({ req, db, workspaceId }) => json(await listTests(db, workspaceId, readQuery(req, pagingQuery))));

// POST /api/v1/tests – draw the questions, add the recipients, e-mail them (unless send_email is false)
export const POST = withApiKey(
  async ({ req, db, workspaceId }) => json(await createTest(db, workspaceId, await readJson(req, createTestInput)), 201),
  { creation: true },
);
