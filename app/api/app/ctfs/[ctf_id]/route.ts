import { readJson } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { deleteCtf, getCtf, updateCtf } from "@/lib/ctf/competitions";
import { updateCtfInput } from "@/lib/ctf/schemas";

type Params = { ctf_id: string };

// GET /api/app/ctfs/{ctf_id} – one competition (dashboard)
export const GET = withSession<Params>(async ({ params, db, workspace }) => Response.json(await getCtf(db, workspace.id, params.ctf_id)));

// PATCH /api/app/ctfs/{ctf_id} – title, description, start/end, visibility (dashboard)
export const PATCH = withSession<Params>(async ({ req, params, db, workspace }) =>
  Response.json(await updateCtf(db, workspace.id, params.ctf_id, await readJson(req, updateCtfInput))),
);

// DELETE /api/app/ctfs/{ctf_id} – only when not deployed (409 otherwise), then ctf.deleted (dashboard)
export const DELETE = withSession<Params>(async ({ params, db, workspace }) => Response.json(await deleteCtf(db, workspace.id, params.ctf_id)));
