import { randomBytes } from "node:crypto";
import type { ClassInvitation, Recipient } from "@/db/schema";
import { appUrl } from "@/lib/kernel/config/email";
import { unseal } from "@/lib/platform/security/sealing";

/**
 * An unguessable personal token (192 bits). Stored only as its hash and a sealed copy
 * (lib/platform/security/tokens.ts `storedToken`); the link is rebuilt from the sealed copy.
 */
export function newToken(): string {
  return randomBytes(24).toString("base64url");
}

/**
 * Whether a string can be one of our tokens (base64url, 20–64 characters): anything else is
 * answered "not found" without a database read.
 */
export function isTokenShaped(token: string): boolean {
  return /^[A-Za-z0-9_-]{20,64}$/.test(token);
}

/** A recipient's personal token, opened from its sealed copy. */
export function recipientToken(recipient: Pick<Recipient, "tokenSealed">): string {
  return unseal("recipients.token", recipient.tokenSealed);
}

export function recipientLink(recipient: Pick<Recipient, "tokenSealed">): string {
  return `${appUrl()}/t/${recipientToken(recipient)}`;
}

export function invitationLink(invitation: Pick<ClassInvitation, "tokenSealed">): string {
  return `${appUrl()}/join/${unseal("class_invitations.token", invitation.tokenSealed)}`;
}

const CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/** Whether a string can be a test code (any case: codes are looked up upper-cased). */
export function isTestCodeShaped(code: string): boolean {
  return /^[2-9A-Za-z]{8}$/.test(code);
}

/** A short test code without look-alike characters, e.g. "K7Q2M9XR". */
export function newTestCode(): string {
  const bytes = randomBytes(8);
  return Array.from(bytes, (byte) => CODE_ALPHABET[byte % CODE_ALPHABET.length]).join("");
}
