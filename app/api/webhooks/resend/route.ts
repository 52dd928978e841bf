import { getDb } from "@/db";
import { toErrorResponse } from "@/lib/api/http-errors";
import { readBodyText } from "@/lib/api/parse";
import { receiveResendWebhook, requireResendWebhookSecret, svixHeaders } from "@/lib/email/provider-events";
import { newId } from "@/lib/ids";

// POST /api/webhooks/resend – Resend's signed delivery events (Svix): delivered, delayed, bounced, complained → each message's status.
// 404 while RESEND_WEBHOOK_SECRET is unset; a forged or stale signature → 401; other event types → 200, ignored.
export async function POST(req: Request): Promise<Response> {
  const requestId = newId("req");
  let response: Response;
  try {
    const secret = requireResendWebhookSecret();
    // The signature is over the exact bytes: read them as they came (size-limited), parse after verifying.
    const body = await readBodyText(req);
    const outcome = await receiveResendWebhook(await getDb(), body, svixHeaders(req.headers), secret);
    response = Response.json({ received: true, outcome });
  } catch (error) {
    response = toErrorResponse(error, requestId, req);
  }
  response.headers.set("X-Request-Id", requestId);
  response.headers.set("Cache-Control", "no-store");
  return response;
}
