import { pagingQuery } from "@/lib/api/paging";
import { readJson, readQuery } from "@/lib/api/parse";
import { json, withApiKey } from "@/lib/api/with-api-key";
import { inviteMember, listMembers } from "@/lib/ctf/members";
import { inviteMemberInput } from "@/lib/ctf/schemas";

type Params = { ctf_id: string };

// GET /api/v1/ctfs/{ctf_id}/members
export const GET = withApiKey<Params>(async ({ req, params, db, workspaceId }) => json(await listMembers(db, workspaceId, params.ctf_id, readQuery(req, pagingQuery))), {
  scope: "ctf:read",
});

// POST /api/v1/ctfs/{ctf_id}/members – invite (or re-invite) by e-mail, then member.invited
export const POST = withApiKey<Params>(
  async ({ req, params, db, workspaceId }) => json(await inviteMember(db, workspaceId, params.ctf_id, await readJson(req, inviteMemberInput)), 201),
  { scope: "ctf:admin" },
);
