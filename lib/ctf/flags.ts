import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { authSecret } from "@/lib/auth/secret";
import { config } from "@/lib/config";

/** SHA-256 of a flag: what checks a submission. */
export function hashFlag(flag: string): string {
  return createHash("sha256").update(flag.trim(), "utf8").digest("hex");
}

export function flagMatches(submitted: string, hash: string): boolean {
  return timingSafeEqual(Buffer.from(hashFlag(submitted), "hex"), Buffer.from(hash, "hex"));
}

function key(): Buffer {
  return createHash("sha256").update(`flag-seal:${config().flagEncryptionKey ?? authSecret()}`).digest();
}

/**
 * An external host (CTFd) needs the flag itself when a challenge is published, so a sealed
 * copy (AES-256-GCM, key from FLAG_ENCRYPTION_KEY or AUTH_SECRET) is kept beside the hash.
 */
export function sealFlag(flag: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(flag, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString("base64url")).join(".");
}

export function unsealFlag(sealed: string): string {
  const [iv, tag, body] = sealed.split(".").map((part) => Buffer.from(part, "base64url"));
  const decipher = createDecipheriv("aes-256-gcm", key(), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
}
