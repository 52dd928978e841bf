import { SignJWT } from "jose";
import type { Certificate } from "@/db/schema";
import { appUrl } from "@/lib/kernel/config/config";
import { certificateUrl } from "./issue";
import { credentialKeys } from "./keys";

/** The media type of a credential secured as a JWT (W3C VC-JOSE-COSE), as Open Badges 3.0 serves it. */
export const CREDENTIAL_MEDIA_TYPE = "application/vc+jwt";

export const OB3_CONTEXT = ["https://www.w3.org/ns/credentials/v2", "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json"];

/** The issuer's id: the workspace that issued it, under this service. */
export const issuerId = (certificate: Pick<Certificate, "workspaceId">) => `${appUrl()}/issuers/${certificate.workspaceId}`;
/** The achievement's id: the test that was passed. */
const achievementId = (certificate: Pick<Certificate, "testId">) => `urn:certify:test:${certificate.testId}`;

/**
 * The certificate as an Open Badges 3.0 AchievementCredential (the data model, unsigned): the
 * issuer (the organisation at issue), the achievement (the test, its certification, the score
 * as a Percent result), the holder by name (an IdentityObject of type "name", not hashed: the
 * printed certificate carries the name too; never the e-mail address), `validFrom` = issue,
 * and `credentialStatus` pointing at its revocation list (1EdTechRevocationList).
 */
export function achievementCredential(certificate: Certificate): Record<string, unknown> {
  const url = certificateUrl(certificate.id);
  const achievement = achievementId(certificate);
  const scoreDescription = `${achievement}#score`;
  return {
    "@context": OB3_CONTEXT,
    id: url,
    type: ["VerifiableCredential", "AchievementCredential"],
    name: `${certificate.testName} (${certificate.certificationName})`,
    issuer: { id: issuerId(certificate), type: ["Profile"], name: certificate.organisation },
    validFrom: certificate.issuedAt.toISOString(),
    credentialSubject: {
      type: ["AchievementSubject"],
      identifier: [{ type: "IdentityObject", identityHash: certificate.recipientName, identityType: "name", hashed: false }],
      achievement: {
        id: achievement,
        type: ["Achievement"],
        achievementType: "Certificate",
        name: certificate.testName,
        description: `Passed ${certificate.testName}, a test of ${certificate.certificationName}.`,
        criteria: { narrative: `Reach the test's pass mark in ${certificate.testName}.` },
        resultDescription: [{ id: scoreDescription, type: ["ResultDescription"], name: "Score", resultType: "Percent" }],
      },
      result: [{ type: ["Result"], resultDescription: scoreDescription, value: String(certificate.score) }],
    },
    credentialStatus: { id: `${url}/status`, type: "1EdTechRevocationList" },
  };
}

/**
 * The credential secured as a VC-JWT: the payload is the credential itself with the registered
 * claims `iss` (issuer id), `jti` (credential id) and `nbf` (validFrom); the header names the
 * signing key (`kid`, its thumbprint in /.well-known/jwks.json), `alg` EdDSA, `typ` vc+jwt.
 * Ed25519 signatures are deterministic: the same certificate and key give the same token.
 */
export async function credentialJwt(certificate: Certificate): Promise<string> {
  const [key] = await credentialKeys();
  const credential = achievementCredential(certificate);
  return new SignJWT(credential)
    .setProtectedHeader({ alg: "EdDSA", kid: key.kid, typ: "vc+jwt", cty: "vc" })
    .setIssuer(issuerId(certificate))
    .setJti(certificateUrl(certificate.id))
    .setNotBefore(Math.floor(certificate.issuedAt.getTime() / 1000))
    .sign(key.privateKey);
}

/** The certificate's revocation list (the 1EdTech Revocation List status method): itself when revoked, empty while valid. */
export function revocationList(certificate: Certificate) {
  const url = certificateUrl(certificate.id);
  return {
    id: `${url}/status`,
    issuer: issuerId(certificate),
    revokedCredentials: certificate.revokedAt ? [{ id: url, revoked: true, revocationReason: "Revoked by the issuer." }] : [],
    status: certificate.revokedAt ? "revoked" : "valid",
    revoked: certificate.revokedAt !== null,
    revoked_at: certificate.revokedAt?.toISOString() ?? null,
  };
}
