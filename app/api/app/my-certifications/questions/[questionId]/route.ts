import { intId, readJson } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { deleteQuestion, updateQuestion } from "@/lib/certification/manage";
import { questionInput } from "@/lib/certification/manage-schemas";

// PATCH /api/app/my-certifications/questions/{questionId} – replace a question; tests already sent keep their copy (dashboard)
export const PATCH = withSession<{ questionId: string }>(async ({ req, params, db, workspace }) => {
  const id = intId(params.questionId, "Question");
  return Response.json(await updateQuestion(db, workspace.id, id, await readJson(req, questionInput)));
});

// DELETE /api/app/my-certifications/questions/{questionId} – delete a question (dashboard)
export const DELETE = withSession<{ questionId: string }>(async ({ params, db, workspace }) => {
  await deleteQuestion(db, workspace.id, intId(params.questionId, "Question"));
  return new Response(null, { status: 204 });
});
