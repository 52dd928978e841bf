import { otherMethods } from "@/lib/platform/http/unrouted";
import { contentDisposition } from "@/lib/platform/http/download";
import { exportBank } from "@/lib/certification/own/banks";
import { ownCertificationContracts as own } from "@/lib/certification/own/contracts";
import { handle } from "@/lib/registry/handle";

export const GET = handle(own.export, async ({ db, workspaceId, params, query }) => {
  const file = await exportBank(db, workspaceId, params.id, query.format);
  return new Response(file.text, {
    headers: { "Content-Type": file.mediaType, "Content-Disposition": contentDisposition(file.fileName), "X-Questions-Left-Out": String(file.leftOut) },
  });
});
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
