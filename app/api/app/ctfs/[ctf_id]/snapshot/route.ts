import { withSession } from "@/lib/auth/with-session";
import { getSnapshot } from "@/lib/ctf/competitions";

// GET /api/app/ctfs/{ctf_id}/snapshot – the final snapshot of an archived competition; 409 before archiving (dashboard)
export const GET = withSession<{ ctf_id: string }>(async ({ params, db, workspace }) => Response.json(await getSnapshot(db, workspace.id, params.ctf_id)));
