import { withSession } from "@/lib/auth/with-session";
import { resultsFilename, testResultsCsv } from "@/lib/tests/export";
import { getTest } from "@/lib/tests/tests";

// GET /api/app/tests/{code}/export – the results as a CSV download, one row per recipient (dashboard)
export const GET = withSession<{ code: string }>(async ({ params, db, workspace }) => {
  const test = await getTest(db, workspace.id, params.code);
  return new Response(testResultsCsv(test), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${resultsFilename(test.code)}"`,
      "Cache-Control": "no-store",
    },
  });
});
