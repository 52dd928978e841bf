import { withSession } from "@/lib/auth/with-session";
import { archiveCtf } from "@/lib/ctf/competitions";

// POST /api/app/ctfs/{ctf_id}/archive – store the final snapshot, then ctf.archived (dashboard)
export const POST = withSession<{ ctf_id: string }>(async ({ params, db, workspace }) => Response.json(await archiveCtf(db, workspace.id, params.ctf_id)));
