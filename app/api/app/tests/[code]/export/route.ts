import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { testContracts as tests } from "@/lib/tests/contracts";
import { resultsFilename, testResultsCsv } from "@/lib/tests/export";
import { getTest } from "@/lib/tests/tests";

export const GET = handle(tests.exportCsv, async ({ db, workspaceId, params }) => {
  const test = await getTest(db, workspaceId, params.code);
  return new Response(testResultsCsv(test), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${resultsFilename(test.code)}"`,
    },
  });
});
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
