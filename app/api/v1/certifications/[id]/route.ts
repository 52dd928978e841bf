import { json, withApiKey } from "@/lib/api/with-api-key";
import { intId } from "@/lib/api/parse";
import { getCertification } from "@/lib/certification/catalog";

// GET /api/v1/certifications/{id} – one certification with its domains
export const GET = withApiKey<{ id: string }>(async ({ params, db, workspaceId }) => {
  return json(await getCertification(db, workspaceId, intId(params.id, "Certification")));
});
