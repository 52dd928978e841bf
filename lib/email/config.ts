import type { EmailTransport } from "@/db/schema";

/** Resend when RESEND_API_KEY is set; otherwise the dev mailbox (nothing leaves the machine). */
export function emailTransport(): EmailTransport {
  return process.env.RESEND_API_KEY ? "resend" : "mailbox";
}

export function emailFrom(): string {
  return process.env.EMAIL_FROM ?? "Certify <no-reply@certify.localhost>";
}

/**
 * The dev mailbox page is served outside production, or in production only when the
 * operator opts in with DEV_MAILBOX=true (the e2e suite does, against the built app).
 */
export function devMailboxEnabled(): boolean {
  if (emailTransport() !== "mailbox") return false;
  return process.env.NODE_ENV !== "production" || process.env.DEV_MAILBOX === "true";
}

/** Public base URL of the app, used in e-mailed links. */
export function appUrl(): string {
  const configured = process.env.APP_URL ?? process.env.AUTH_URL;
  if (configured) return configured.replace(/\/+$/, "");
  return `http://localhost:${process.env.PORT ?? 3000}`;
}
