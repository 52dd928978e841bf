import { otherMethods } from "@/lib/platform/http/unrouted";
import { resultsFilename, testResultsCsvStream } from "@/lib/certification/insight/export";
import { handle } from "@/lib/registry/handle";
import { insightContracts } from "@/lib/certification/insight/contracts";

// The results CSV, streamed: read and sent a few hundred recipients at a time (bounded memory whatever the test's size).
export const GET = handle(insightContracts.exportCsv, async ({ db, workspaceId, params }) => {
  const { code, stream } = await testResultsCsvStream(db, workspaceId, params.code);
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${resultsFilename(code)}"`,
    },
  });
});
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
