import type { Samples } from "./types";

/** Resend's callback: a signed body the fuzz suite mutates (unsigned, it is refused). */
export const emailSamples: Samples = {
  "providers.resend": {
    body: () => ({ type: "email.bounced", created_at: "2026-11-23T10:00:00Z", data: { email_id: "re_1", bounce: { message: "m" } } }),
  },
};
