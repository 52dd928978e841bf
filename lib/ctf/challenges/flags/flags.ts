import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { authSecret } from "@/lib/platform/security/auth-secret";
import { config } from "@/lib/kernel/config/config";
import type { FlagMode } from "@/db/schema";
import { conflict } from "@/lib/kernel/errors";
import { compileFlagPattern, flagPatternAccepts } from "./pattern";

/** SHA-256 of a flag: what checks a submission. */
export function hashFlag(flag: string): string {
  return createHash("sha256").update(flag.trim(), "utf8").digest("hex");
}

export function flagMatches(submitted: string, hash: string): boolean {
  return timingSafeEqual(Buffer.from(hashFlag(submitted), "hex"), Buffer.from(hash, "hex"));
}

/** What is stored for a flag in its mode: the hash that checks it (a pattern's checks nothing) and the sealed copy. */
export function storedFlag(flag: string, mode: FlagMode): { flagHash: string; flagSealed: string; flagMode: FlagMode } {
  // The sealed copy keeps the flag as given, so a later change of mode can re-derive the hash.
  return { flagHash: hashFlag(mode === "case_insensitive" ? flag.toLowerCase() : flag), flagSealed: sealFlag(flag), flagMode: mode };
}

/**
 * Checks a submission in the challenge's mode: `exact` and `case_insensitive` compare hashes
 * in constant time (the latter lower-cases the submission first); `regex` unseals the pattern
 * and matches the whole trimmed submission with RE2 (./flag-pattern: linear time, whatever the
 * pattern). A pattern stored before RE2 that it cannot compile (a look-around, `\u00e9`…) is
 * refused (409, naming why), not answered `incorrect`: the player's flag may be right, and the
 * organiser must give the pattern again. The refusal rolls back, so the attempt is not counted.
 */
export function flagAccepts(challenge: { flagMode: FlagMode; flagHash: string; flagSealed: string }, submitted: string): boolean {
  if (challenge.flagMode === "regex") {
    const pattern = compileFlagPattern(unsealFlag(challenge.flagSealed));
    if (pattern.problem !== null) throw conflict(`This challenge's flag pattern cannot be checked: ${pattern.problem} The organiser must give the flag again.`);
    return flagPatternAccepts(pattern.matcher, submitted.trim());
  }
  return flagMatches(challenge.flagMode === "case_insensitive" ? submitted.toLowerCase() : submitted, challenge.flagHash);
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
