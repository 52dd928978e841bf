import { getDb } from "@/db";
import { toErrorResponse } from "@/lib/api/http-errors";
import { readJson } from "@/lib/api/parse";
import { selfEnrol } from "@/lib/ctf/members";
import { inviteMemberInput } from "@/lib/ctf/schemas";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";

// POST /api/c/{ctfId}/join – self-enrolment on a public, deployed competition (no account):
// an invitation e-mail goes to the address; joining happens when its link is accepted.
export async function POST(req: Request, context: { params: Promise<{ ctfId: string }> }): Promise<Response> {
  const requestId = newId("req");
  let response: Response;
  try {
    // Only the competition page itself posts here: another site cannot make visitors' browsers send invitations.
    const origin = req.headers.get("origin");
    const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
    if (!origin || !host || new URL(origin).host !== host) throw new AppError("forbidden", "Cross-origin requests are not accepted here.");
    const { ctfId } = await context.params;
    const { email } = await readJson(req, inviteMemberInput);
    await selfEnrol(await getDb(), ctfId, email);
    response = Response.json({ status: "invited", message: `An invitation was sent to ${email}. Open its link to join.` }, { status: 202 });
  } catch (error) {
    response = toErrorResponse(error, requestId);
  }
  response.headers.set("X-Request-Id", requestId);
  response.headers.set("Cache-Control", "no-store");
  return response;
}
