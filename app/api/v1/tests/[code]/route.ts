import { json, withApiKey } from "@/lib/api/with-api-key";
import { getTest } from "@/lib/tests/tests";

// GET /api/v1/tests/{code} – the test, its domains and recipients with status and results
export const GET = withApiKey<{ code: string }>(async ({ params, db, workspaceId }) => json(await getTest(db, workspaceId, params.code)));
