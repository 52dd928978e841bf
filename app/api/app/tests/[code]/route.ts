import { withSession } from "@/lib/auth/with-session";
import { getTest } from "@/lib/tests/tests";

// GET /api/app/tests/{code} – the test, its domains and recipients with status, personal link and result (dashboard)
export const GET = withSession<{ code: string }>(async ({ params, db, workspace }) =>
  Response.json(await getTest(db, workspace.id, params.code)),
);
