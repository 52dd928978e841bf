import { intId, readJson } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { getOwnCertification, updateCertification } from "@/lib/certification/manage";
import { updateCertificationInput } from "@/lib/certification/manage-schemas";

// GET /api/app/my-certifications/{id} – an own certification with its domains; a catalog one is 404 (dashboard)
export const GET = withSession<{ id: string }>(async ({ params, db, workspace }) =>
  Response.json(await getOwnCertification(db, workspace.id, intId(params.id, "Certification"))),
);

// PATCH /api/app/my-certifications/{id} – name, vendor, code, description (dashboard)
export const PATCH = withSession<{ id: string }>(async ({ req, params, db, workspace }) => {
  const id = intId(params.id, "Certification");
  return Response.json(await updateCertification(db, workspace.id, id, await readJson(req, updateCertificationInput)));
});
