import { handle } from "@/lib/api/handle";
import { ctfContracts as ctfs } from "@/lib/ctf/contracts";
import { selfEnrol } from "@/lib/ctf/members";

// Self-enrolment on a public, deployed competition (no account): past the mail limits nothing
// is sent, and the answer is the same (no enumeration).
export const POST = handle(ctfs.join, async ({ db, params, body, clientIp }) => {
  await selfEnrol(db, params.ctf_id, body, clientIp);
  return { status: "invited" as const, message: `An invitation was sent to ${body.email}. Open its link to join.` };
});
