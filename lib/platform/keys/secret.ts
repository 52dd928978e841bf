import { createHash, randomBytes } from "node:crypto";

const KEY_PREFIX = "ck_";
/** Characters of the key shown in lists, after which it is masked. */
const VISIBLE_LENGTH = KEY_PREFIX.length + 8;

/** A fresh key: `ck_` + 32 random bytes (base64url), shown once and never stored. */
export function generateApiKeySecret(): { secret: string; prefix: string; hash: string } {
  const secret = KEY_PREFIX + randomBytes(32).toString("base64url");
  return { secret, prefix: secret.slice(0, VISIBLE_LENGTH), hash: hashApiKey(secret) };
}

/** SHA-256 hex: keys are high-entropy, so a fast unsalted hash is the right lookup key. */
export function hashApiKey(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Reads the key from `X-API-KEY` or `Authorization: Bearer`; undefined when absent. */
export function readApiKey(headers: Headers): string | undefined {
  const direct = headers.get("x-api-key")?.trim();
  if (direct) return direct;
  const authorization = headers.get("authorization")?.trim();
  const match = authorization?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
}
