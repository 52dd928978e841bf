import { otherMethods } from "@/lib/platform/http/unrouted";
import { getClass } from "@/lib/certification/classes/classes";
import { classContracts as classes } from "@/lib/certification/classes/contracts";
import { resendInvitation } from "@/lib/certification/classes/invitations";
import { handle } from "@/lib/registry/handle";

export const POST = handle(classes.resendInvitation, async ({ db, workspaceId, params }) => {
  await resendInvitation(db, workspaceId, params.id, params.invitation_id);
  return getClass(db, workspaceId, params.id);
});
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
