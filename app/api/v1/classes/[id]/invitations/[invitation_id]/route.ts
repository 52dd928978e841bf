import { handle } from "@/lib/api/handle";
import { cancelInvitation, getClass } from "@/lib/classes/classes";
import { classContracts as classes } from "@/lib/classes/contracts";

export const DELETE = handle(classes.cancelInvitation, async ({ db, workspaceId, params }) => {
  await cancelInvitation(db, workspaceId, params.id, params.invitation_id);
  return getClass(db, workspaceId, params.id);
});
