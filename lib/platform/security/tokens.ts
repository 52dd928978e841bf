import { createHash, randomBytes } from "node:crypto";
import { seal, type SealPurpose } from "./sealing";

/**
 * Capability tokens at rest (a personal test link, a class invitation, a competition
 * member's link): the database keeps the SHA-256 to look a token up and a sealed copy to
 * show or e-mail it again, never the token itself.
 */

/** SHA-256 (hex) of a token: the value a token is looked up by. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** The columns stored for a new token: its hash and its copy sealed for `purpose`. */
export function storedToken(purpose: SealPurpose, token: string): { tokenHash: string; tokenSealed: string } {
  return { tokenHash: hashToken(token), tokenSealed: seal(purpose, token) };
}

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
