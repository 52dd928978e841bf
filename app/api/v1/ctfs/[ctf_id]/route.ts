import { readJson } from "@/lib/api/parse";
import { json, withApiKey } from "@/lib/api/with-api-key";
import { deleteCtf, getCtf, updateCtf } from "@/lib/ctf/competitions";
import { updateCtfInput } from "@/lib/ctf/schemas";

type Params = { ctf_id: string };

// GET /api/v1/ctfs/{ctf_id}
export const GET = withApiKey<Params>(async ({ params, db, workspaceId }) => json(await getCtf(db, workspaceId, params.ctf_id)), { scope: "ctf:read" });

// PATCH /api/v1/ctfs/{ctf_id} – title, description, start/end, visibility
export const PATCH = withApiKey<Params>(
  async ({ req, params, db, workspaceId }) => json(await updateCtf(db, workspaceId, params.ctf_id, await readJson(req, updateCtfInput))),
  { scope: "ctf:write" },
);

// DELETE /api/v1/ctfs/{ctf_id} – only when not deployed; tears the infrastructure down, then ctf.deleted
export const DELETE = withApiKey<Params>(async ({ params, db, workspaceId }) => json(await deleteCtf(db, workspaceId, params.ctf_id)), { scope: "ctf:deploy" });
