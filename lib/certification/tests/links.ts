import { randomBytes } from "node:crypto";
import type { Recipient } from "@/db/schema";
import { unseal } from "@/lib/platform/security/sealing";
import { appUrl } from "@/lib/kernel/config/config";

/** A recipient's personal token, opened from its sealed copy. */
export function recipientToken(recipient: Pick<Recipient, "tokenSealed">): string {
  return unseal("recipients.token", recipient.tokenSealed);
}

export function recipientLink(recipient: Pick<Recipient, "tokenSealed">): string {
  return `${appUrl()}/t/${recipientToken(recipient)}`;
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
