import { intId } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { getCertification } from "@/lib/certification/catalog";

// GET /api/app/certifications/{id} – one certification with its domains and their question counts (dashboard)
export const GET = withSession<{ id: string }>(async ({ params, db, workspace }) =>
  Response.json(await getCertification(db, workspace.id, intId(params.id, "Certification"))),
);
