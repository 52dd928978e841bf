import { intId } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { listQuestions } from "@/lib/certification/manage";

// GET /api/app/my-certifications/{id}/questions – every question of an own certification, in domain order (dashboard)
export const GET = withSession<{ id: string }>(async ({ params, db, workspace }) =>
  Response.json({ data: await listQuestions(db, workspace.id, intId(params.id, "Certification")) }),
);
