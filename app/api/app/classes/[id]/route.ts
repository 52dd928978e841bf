import { intId } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { getClass } from "@/lib/classes/classes";

// GET /api/app/classes/{id} – the class, its joined students and pending invitations (dashboard)
export const GET = withSession<{ id: string }>(async ({ params, db, workspace }) =>
  Response.json(await getClass(db, workspace.id, intId(params.id, "Class"))),
);
