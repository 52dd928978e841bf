import { withSession } from "@/lib/auth/with-session";
import { deployCtf } from "@/lib/ctf/competitions";

// POST /api/app/ctfs/{ctf_id}/deploy – asynchronous: deploying, then deployed and ctf.deployed (dashboard)
export const POST = withSession<{ ctf_id: string }>(async ({ params, db, workspace }) =>
  Response.json(await deployCtf(db, workspace.id, params.ctf_id), { status: 202 }),
);
