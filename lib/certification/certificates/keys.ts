import { createPrivateKey, createPublicKey, hkdfSync, type KeyObject } from "node:crypto";
import { calculateJwkThumbprint, type JWK } from "jose";
import { config, type Ed25519PrivateJwk } from "@/lib/kernel/config/config";
import { authSecret } from "@/lib/platform/security/auth-secret";

/**
 * The service's credential keys (Ed25519, EdDSA): each configured key of
 * CREDENTIAL_SIGNING_KEYS (the first signs), then the key derived from AUTH_SECRET with
 * HKDF-SHA256 (it signs when none is configured, so credentials verify across restarts with no
 * setup). Every one is published at /.well-known/jwks.json, so a credential signed before a
 * rotation still verifies. `kid` is the key's JWK thumbprint (RFC 7638).
 */
export type SigningKey = { kid: string; privateKey: KeyObject; publicJwk: JWK };

const SALT = "certify credential signing";
/** PKCS #8 wrapping of an Ed25519 seed (RFC 8410): the 16 bytes before the 32-byte private key. */
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

let cached: { fingerprint: string; keys: SigningKey[] } | undefined;

async function signingKey(privateKey: KeyObject): Promise<SigningKey> {
  const { kty, crv, x } = createPublicKey(privateKey).export({ format: "jwk" }) as JWK;
  const kid = await calculateJwkThumbprint({ kty, crv, x });
  return { kid, privateKey, publicJwk: { kty, crv, x, kid, alg: "EdDSA", use: "sig" } };
}

/** The Ed25519 key derived from a secret: the same secret always gives the same key. */
function derivedKey(secret: string): KeyObject {
  const seed = Buffer.from(hkdfSync("sha256", secret, SALT, "ed25519 v1", 32));
  return createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" });
}

const configuredKey = (jwk: Ed25519PrivateJwk): KeyObject => createPrivateKey({ key: jwk, format: "jwk" });

/** Every key, the signing one first, each once; derived once per configuration. */
export async function credentialKeys(): Promise<SigningKey[]> {
  const configured = config().credentialSigningKeys;
  const secret = authSecret();
  const fingerprint = JSON.stringify([configured.map((key) => key.x), secret]);
  if (cached?.fingerprint === fingerprint) return cached.keys;
  const all = await Promise.all([...configured.map(configuredKey), derivedKey(secret)].map(signingKey));
  const keys = all.filter((key, index) => all.findIndex((other) => other.kid === key.kid) === index);
  cached = { fingerprint, keys };
  return keys;
}

/** The published key set (JWKS): public keys only. */
export async function publicKeySet(): Promise<{ keys: JWK[] }> {
  return { keys: (await credentialKeys()).map((key) => key.publicJwk) };
}
