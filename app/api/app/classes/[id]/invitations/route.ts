import { intId, readJson } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { inviteStudents } from "@/lib/classes/classes";
import { inviteStudentsInput } from "@/lib/classes/schemas";

// POST /api/app/classes/{id}/invitations – invite more students; answers the class (dashboard)
export const POST = withSession<{ id: string }>(async ({ req, params, db, workspace }) => {
  const id = intId(params.id, "Class");
  return Response.json(await inviteStudents(db, workspace.id, id, await readJson(req, inviteStudentsInput)), { status: 201 });
});
