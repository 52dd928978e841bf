import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { SealPurpose } from "@/db/sealed";
import { authSecret } from "@/lib/platform/security/auth-secret";
import { config } from "@/lib/kernel/config/config";

export type { SealPurpose } from "@/db/sealed";

/**
 * The application key: seals what the service must read back later — a personal link shown
 * to the trainer or e-mailed again, a webhook signing secret — so that a copy of the database
 * alone does not reveal it (docs/security.md, "Tokens and secrets at rest").
 *
 * - AES-256-GCM under a key derived with HKDF-SHA256 from a secret: each entry of
 *   DATA_ENCRYPTION_KEYS (the first seals, every one opens) and AUTH_SECRET (it seals when
 *   DATA_ENCRYPTION_KEYS is unset, and always opens, so values sealed before the variable was
 *   set still open). Unset AUTH_SECRET outside production: the generated one of
 *   lib/platform/security/auth-secret.ts.
 * - A sealed value is `v1.{key id}.{iv}.{ciphertext}.{tag}` (base64url parts). The key id is
 *   derived from the key, so a value names the key that opens it and keys can rotate.
 * - The purpose (the column, db/sealed.ts) is bound as additional data: a value moved to
 *   another column does not open there.
 */

const VERSION = "v1";
const SALT = "certify data sealing";

type Key = { id: string; key: Buffer };
type Keyring = { sealing: Key; byId: Map<string, Key> };

let cached: { fingerprint: string; ring: Keyring } | undefined;

function derive(secret: string): Key {
  const key = Buffer.from(hkdfSync("sha256", secret, SALT, "v1 key", 32));
  const id = Buffer.from(hkdfSync("sha256", secret, SALT, "v1 key id", 6)).toString("base64url");
  return { id, key };
}

/** The keys, derived once per configuration (HKDF is not free; a page of links opens many values). */
function keyring(): Keyring {
  const secrets = [...config().dataEncryptionKeys, authSecret()];
  const fingerprint = secrets.join("\n");
  if (cached?.fingerprint === fingerprint) return cached.ring;
  const keys = secrets.map(derive);
  const ring = { sealing: keys[0], byId: new Map(keys.map((key) => [key.id, key])) };
  cached = { fingerprint, ring };
  return ring;
}

/** Seals `plaintext` for `purpose` under the sealing key. */
export function seal(purpose: SealPurpose, plaintext: string): string {
  const { sealing } = keyring();
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealing.key, iv);
  cipher.setAAD(Buffer.from(purpose, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, sealing.id, iv.toString("base64url"), body.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(".");
}

/**
 * Opens a value sealed for `purpose`. Throws when it is not a sealed value, when its key is
 * not configured (a key left out of DATA_ENCRYPTION_KEYS, or AUTH_SECRET changed without
 * listing the old one there), or when it was altered or sealed for another purpose.
 */
export function unseal(purpose: SealPurpose, sealed: string): string {
  const parts = sealed.split(".");
  if (parts.length !== 5 || parts[0] !== VERSION) throw new Error(`Not a sealed value (${purpose}).`);
  const [, keyId, iv, body, tag] = parts;
  const key = keyring().byId.get(keyId);
  if (!key) {
    throw new Error(`A ${purpose} value is sealed under key ${keyId}, which is not configured: list the key it was sealed with in DATA_ENCRYPTION_KEYS (or restore the AUTH_SECRET it came from).`);
  }
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(purpose, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new Error(`A ${purpose} value does not open under key ${keyId}: it was altered, or sealed for another purpose.`);
  }
}

/** How every value sealed under the current sealing key starts: what key rotation leaves alone (db/sealed.ts `resealColumns`). */
export function currentSealPrefix(): string {
  return `${VERSION}.${keyring().sealing.id}.`;
}

/** Opens a value under whichever configured key sealed it and seals it again under the current one. */
export function reseal(purpose: SealPurpose, sealed: string): string {
  return seal(purpose, unseal(purpose, sealed));
}
