import { pagingQuery } from "@/lib/api/paging";
import { readJson, readQuery } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { inviteMember, listMembers } from "@/lib/ctf/members";
import { inviteMemberInput } from "@/lib/ctf/schemas";

type Params = { ctf_id: string };

// GET /api/app/ctfs/{ctf_id}/members – invited and joined competitors (dashboard)
export const GET = withSession<Params>(async ({ req, params, db, workspace }) =>
  Response.json(await listMembers(db, workspace.id, params.ctf_id, readQuery(req, pagingQuery))),
);

// POST /api/app/ctfs/{ctf_id}/members – invite (or re-invite) by e-mail, then member.invited (dashboard)
export const POST = withSession<Params>(async ({ req, params, db, workspace }) =>
  Response.json(await inviteMember(db, workspace.id, params.ctf_id, await readJson(req, inviteMemberInput)), { status: 201 }),
);
