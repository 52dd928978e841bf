import { intId } from "@/lib/api/parse";
import { json, withApiKey } from "@/lib/api/with-api-key";
import { resendRecipient } from "@/lib/tests/tests";

// POST /api/v1/tests/{code}/recipients/{id}/resend – a fresh e-mail; completed → 409
export const POST = withApiKey<{ code: string; id: string }>(async ({ params, db, workspaceId }) =>
  json(await resendRecipient(db, workspaceId, params.code, intId(params.id, "Recipient")), 202),
);
