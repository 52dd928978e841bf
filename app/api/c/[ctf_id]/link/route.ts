import { otherMethods } from "@/lib/platform/http/unrouted";
import { resendPlayerLink } from "@/lib/ctf/play/player-link";
import { playContracts as play } from "@/lib/ctf/play/contracts";
import { handle } from "@/lib/registry/handle";

// "Send me my link again": the same answer whether or not a link was sent (no enumeration).
export const POST = handle(play.resendLink, async ({ db, params, body, clientIp }) => {
  await resendPlayerLink(db, params.ctf_id, body, clientIp);
  return { status: "sent" as const, message: `If ${body.email} takes part in this competition, its link is on its way.` };
});
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
