import { intId } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { classProgress } from "@/lib/classes/classes";

// GET /api/app/classes/{id}/progress – per student: tests sent, started, completed, averages overall and per domain (dashboard)
export const GET = withSession<{ id: string }>(async ({ params, db, workspace }) =>
  Response.json(await classProgress(db, workspace.id, intId(params.id, "Class"))),
);
