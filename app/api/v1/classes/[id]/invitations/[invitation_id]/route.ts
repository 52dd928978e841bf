import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { cancelInvitation, getClass } from "@/lib/classes/classes";
import { classContracts as classes } from "@/lib/classes/contracts";

export const DELETE = handle(classes.cancelInvitation, async ({ db, workspaceId, params }) => {
  await cancelInvitation(db, workspaceId, params.id, params.invitation_id);
  return getClass(db, workspaceId, params.id);
});
export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
