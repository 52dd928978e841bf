import { intId, readJson } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { renameDomain } from "@/lib/certification/manage";
import { domainNameInput } from "@/lib/certification/manage-schemas";

// PATCH /api/app/my-certifications/domains/{domainId} – rename a domain of an own certification (dashboard)
export const PATCH = withSession<{ domainId: string }>(async ({ req, params, db, workspace }) => {
  const id = intId(params.domainId, "Domain");
  return Response.json(await renameDomain(db, workspace.id, id, await readJson(req, domainNameInput)));
});
