import { otherMethods } from "@/lib/platform/http/unrouted";
import { getClass } from "@/lib/certification/classes/classes";
import { classContracts as classes } from "@/lib/certification/classes/contracts";
import { cancelInvitation } from "@/lib/certification/classes/invitations";
import { handle } from "@/lib/registry/handle";

export const DELETE = handle(classes.cancelInvitation, async ({ db, workspaceId, params }) => {
  await cancelInvitation(db, workspaceId, params.id, params.invitation_id);
  return getClass(db, workspaceId, params.id);
});
export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
