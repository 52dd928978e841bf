import { intId, readJson } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { addQuestion } from "@/lib/certification/manage";
import { questionInput } from "@/lib/certification/manage-schemas";

// POST /api/app/my-certifications/domains/{domainId}/questions – add a question to a domain of an own certification (dashboard)
export const POST = withSession<{ domainId: string }>(async ({ req, params, db, workspace }) => {
  const id = intId(params.domainId, "Domain");
  return Response.json(await addQuestion(db, workspace.id, id, await readJson(req, questionInput)), { status: 201 });
});
