import { intId } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { resendRecipient } from "@/lib/tests/tests";

// POST /api/app/tests/{code}/recipients/{id}/resend – a fresh e-mail with the same link; completed → 409 (dashboard)
export const POST = withSession<{ code: string; id: string }>(async ({ params, db, workspace }) =>
  Response.json(await resendRecipient(db, workspace.id, params.code, intId(params.id, "Recipient")), { status: 202 }),
);
