import { intId, readJson } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { importQuestionsCsv } from "@/lib/certification/manage";
import { importCsvInput } from "@/lib/certification/manage-schemas";

// POST /api/app/my-certifications/{id}/import – { csv }: import questions, all or nothing; 422 lists rows.<n>.<column> (dashboard)
export const POST = withSession<{ id: string }>(async ({ req, params, db, workspace }) => {
  const id = intId(params.id, "Certification");
  const { csv } = await readJson(req, importCsvInput);
  return Response.json(await importQuestionsCsv(db, workspace.id, id, csv), { status: 201 });
});
