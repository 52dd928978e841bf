import { otherMethods } from "@/lib/platform/http/unrouted";
import { ctfContracts as ctfs } from "@/lib/ctf/competitions/contracts";
import { selfEnrol } from "@/lib/ctf/competitions/members";
import { resendPlayerLink } from "@/lib/ctf/play/player-link";
import { handle } from "@/lib/registry/handle";

// Self-enrolment on a public, deployed competition (no account): past the mail limits nothing
// is sent, and the answer is the same (no enumeration). A member who has already joined gets
// their own link instead, as from "Send me my link again", under the same limits.
export const POST = handle(ctfs.join, async ({ db, params, body, clientIp }) => {
  const member = await selfEnrol(db, params.ctf_id, body, clientIp);
  if (member?.status === "joined") await resendPlayerLink(db, params.ctf_id, body, clientIp);
  return { status: "invited" as const, message: `An invitation was sent to ${body.email}. Open its link to join.` };
});
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
