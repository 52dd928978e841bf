import { intId } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { getClass, resendInvitation } from "@/lib/classes/classes";

// POST /api/app/classes/{id}/invitations/{invitationId}/resend – e-mail a pending invitation again; answers the class (dashboard)
export const POST = withSession<{ id: string; invitationId: string }>(async ({ params, db, workspace }) => {
  const id = intId(params.id, "Class");
  await resendInvitation(db, workspace.id, id, intId(params.invitationId, "Invitation"));
  return Response.json(await getClass(db, workspace.id, id));
});
