import { json, withApiKey } from "@/lib/api/with-api-key";
import { intId } from "@/lib/api/parse";
import { listDomains } from "@/lib/certification/catalog";

// GET /api/v1/certifications/{id}/domains – { data: [{ id, name, questions }] }
export const GET = withApiKey<{ id: string }>(async ({ params, db, workspaceId }) => {
  return json({ data: await listDomains(db, workspaceId, intId(params.id, "Certification")) });
});
