import { z } from "zod";
import { contract } from "@/lib/kernel/contract";

/** Resend's signed delivery events (Svix), called by Resend, server to server. */
export const emailContracts = {
  resendEvents: contract({
    id: "providers.resend",
    method: "POST",
    path: "/api/webhooks/resend",
    caller: "provider",
    // The signature is over the exact bytes: the handler gets the text as it came and parses after verifying.
    rawBody: true,
    status: 200,
    response: z.object({
      received: z.literal(true),
      outcome: z.enum(["updated", "unchanged", "unknown_message", "ignored"]),
    }),
    docs: {
      tag: "Providers",
      summary: "Resend delivery events",
      description:
        "For Resend's webhooks, not for integrators: delivered, delivery_delayed, bounced and complained events, signed with Svix headers " +
        "(`svix-id`, `svix-timestamp`, `svix-signature`), update each message's delivery status. 404 while `RESEND_WEBHOOK_SECRET` is unset; " +
        "a forged or stale signature → 401; other event types → 200, ignored.",
      errors: [401, 404],
    },
  }),
};
