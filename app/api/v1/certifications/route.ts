import { json, withApiKey } from "@/lib/api/with-api-key";
import { readQuery } from "@/lib/api/parse";
import { listCertifications } from "@/lib/certification/catalog";
import { listCertificationsQuery } from "@/lib/certification/schemas";

// GET /api/v1/certifications – the catalog plus the workspace's own certifications
export const GET = withApiKey(async ({ req, db, workspaceId }) => {
  const query = readQuery(req, listCertificationsQuery);
  return json(await listCertifications(db, workspaceId, query));
});
