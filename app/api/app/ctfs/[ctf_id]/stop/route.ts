import { withSession } from "@/lib/auth/with-session";
import { stopCtf } from "@/lib/ctf/competitions";

// POST /api/app/ctfs/{ctf_id}/stop – take the running instance down (dashboard)
export const POST = withSession<{ ctf_id: string }>(async ({ params, db, workspace }) => Response.json(await stopCtf(db, workspace.id, params.ctf_id)));
