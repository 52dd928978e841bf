import { pagingQuery } from "@/lib/api/paging";
import { readJson, readQuery } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { createTestInput } from "@/lib/tests/schemas";
import { createTest, listTests } from "@/lib/tests/tests";

// GET /api/app/tests – the workspace's tests, newest first, with recipient/started/completed counts (dashboard)
export const GET = withSession(async ({ req, db, workspace }) =>
  Response.json(await listTests(db, workspace.id, readQuery(req, pagingQuery))),
);

// POST /api/app/tests – same input as POST /api/v1/tests
export const POST = withSession(async ({ req, db, workspace }) => {
  const input = await readJson(req, createTestInput);
  return Response.json(await createTest(db, workspace.id, input), { status: 201 });
});
