import { intId, readJson } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { addDomain } from "@/lib/certification/manage";
import { domainNameInput } from "@/lib/certification/manage-schemas";

// POST /api/app/my-certifications/{id}/domains – add a domain to an own certification (dashboard)
export const POST = withSession<{ id: string }>(async ({ req, params, db, workspace }) => {
  const id = intId(params.id, "Certification");
  return Response.json(await addDomain(db, workspace.id, id, await readJson(req, domainNameInput)), { status: 201 });
});
