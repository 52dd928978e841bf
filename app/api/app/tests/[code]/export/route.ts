import { otherMethods } from "@/lib/platform/http/unrouted";
import { resultsFilename, testResultsCsv } from "@/lib/certification/insight/export";
import { getTest } from "@/lib/certification/tests/tests";
import { integrityRecords } from "@/lib/certification/integrity/summary";
import { handle } from "@/lib/registry/handle";
import { insightContracts } from "@/lib/certification/insight/contracts";

export const GET = handle(insightContracts.exportCsv, async ({ db, workspaceId, params }) => {
  const test = await getTest(db, workspaceId, params.code);
  const integrity = await integrityRecords(db, test.recipients.map((recipient) => recipient.id));
  return new Response(testResultsCsv(test, integrity), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${resultsFilename(test.code)}"`,
    },
  });
});
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
