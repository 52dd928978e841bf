import { handle } from "@/lib/api/handle";
import { getClass, resendInvitation } from "@/lib/classes/classes";
import { classContracts as classes } from "@/lib/classes/contracts";

export const POST = handle(classes.resendInvitation, async ({ db, workspaceId, params }) => {
  await resendInvitation(db, workspaceId, params.id, params.invitation_id);
  return getClass(db, workspaceId, params.id);
});
