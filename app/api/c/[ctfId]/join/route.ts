import { getDb } from "@/db";
import { toErrorResponse } from "@/lib/api/http-errors";
import { readJson, rejectOversizedBody, rejectUnstorableParams } from "@/lib/api/parse";
import { requireSameOrigin } from "@/lib/api/same-origin";
import { selfEnrol } from "@/lib/ctf/members";
import { inviteMemberInput } from "@/lib/ctf/schemas";
import { newId } from "@/lib/ids";
import { clientAddress } from "@/lib/ratelimit/client-ip";

// POST /api/c/{ctfId}/join – self-enrolment on a public, deployed competition (no account):
// an invitation e-mail goes to the address; joining happens when its link is accepted.
export async function POST(req: Request, context: { params: Promise<{ ctfId: string }> }): Promise<Response> {
  const requestId = newId("req");
  let response: Response;
  try {
    // Only the competition page itself posts here: another site cannot make visitors' browsers send invitations.
    rejectOversizedBody(req);
    requireSameOrigin(req);
    const { ctfId } = await context.params;
    rejectUnstorableParams({ ctfId });
    const { email } = await readJson(req, inviteMemberInput);
    // Past the mail limits nothing is sent, and the answer is the same: no enumeration.
    await selfEnrol(await getDb(), ctfId, email, clientAddress(req.headers));
    response = Response.json({ status: "invited", message: `An invitation was sent to ${email}. Open its link to join.` }, { status: 202 });
  } catch (error) {
    response = toErrorResponse(error, requestId, req);
  }
  response.headers.set("X-Request-Id", requestId);
  response.headers.set("Cache-Control", "no-store");
  return response;
}
