import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { getClass, resendInvitation } from "@/lib/classes/classes";
import { classContracts as classes } from "@/lib/classes/contracts";

export const POST = handle(classes.resendInvitation, async ({ db, workspaceId, params }) => {
  await resendInvitation(db, workspaceId, params.id, params.invitation_id);
  return getClass(db, workspaceId, params.id);
});
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
