import { otherMethods } from "@/lib/platform/http/unrouted";
import { emailContracts as email } from "@/lib/platform/email/contracts";
import { receiveResendWebhook, requireResendWebhookSecret, svixHeaders } from "@/lib/platform/email/provider-events";
import { handle } from "@/lib/registry/handle";

export const POST = handle(email.resendEvents, async ({ db, req, body }) => {
  const secret = requireResendWebhookSecret();
  return { received: true as const, outcome: await receiveResendWebhook(db, body, svixHeaders(req.headers), secret) };
});
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
