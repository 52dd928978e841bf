import { randomBytes } from "node:crypto";
import type { Db } from "@/db";
import { preparedQuery } from "@/db/prepared";
import type { RecipientResult } from "@/db/schema";
import { appUrl } from "@/lib/kernel/config/config";
import { testName } from "@/lib/certification/tests/settings";

/** A certificate id: 128 random bits, base64url (22 characters): unguessable, and safe in a URL as it is. */
export function newCertificateId(): string {
  return randomBytes(16).toString("base64url");
}

/** Whether a string can be a certificate id: anything else is not looked up. */
export function isCertificateIdShaped(id: string): boolean {
  return /^[A-Za-z0-9_-]{22}$/.test(id);
}

/** "26 November 2026" (UTC): how a certificate dates its issue and its revocation. */
export const longDate = (date: Date) => date.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** The public verification page of a certificate. */
export function certificateUrl(id: string): string {
  return `${appUrl()}/certificates/${id}`;
}

/**
 * The name printed on a certificate: the recipient's name; without one, their e-mail
 * address's local part (before any "+tag") made readable ("ada.lovelace" → "Ada Lovelace"):
 * never the address itself, which the public page must not show (docs/decisions.md, "Certificates").
 */
export function holderName(recipient: { name: string; email: string }): string {
  const name = recipient.name.trim();
  if (name) return name;
  const local = recipient.email.split("@")[0].split("+")[0];
  const words = local.split(/[._-]+/).filter(Boolean);
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(" ") || local;
}

type IssuingTest = { id: number; workspaceId: string; name: string | null; certificationName: string; certificate: boolean };
type Holder = { id: number; name: string; email: string };

/** A certificate about to be issued: its id and URL are known before the row is written, so the result can carry them in the same round trip. */
export type PendingCertificate = { id: string; url: string; write: (tx: Db) => Promise<unknown> };

/**
 * The certificate a completion issues: only when the test issues certificates and the result
 * passed; undefined otherwise. The facts are frozen from the test, the recipient and — read in
 * the same statement — the workspace's issuer settings (organisation name, else its name;
 * signer). The caller runs `write` in the completion's transaction.
 */
export function certificateOnPass(test: IssuingTest, holder: Holder, result: Pick<RecipientResult, "percent" | "passed">, at: Date): PendingCertificate | undefined {
  if (!test.certificate || !result.passed) return undefined;
  const id = newCertificateId();
  const params = [id, test.workspaceId, test.id, holder.id, holderName(holder), testName(test), test.certificationName, result.percent, at.toISOString()];
  return { id, url: certificateUrl(id), write: (tx) => preparedQuery(tx, ISSUE_SQL, params) };
}

const ISSUE_SQL = `insert into certificates (id, workspace_id, test_id, recipient_id, recipient_name, test_name, certification_name, score, organisation, signer, issued_at)
  select $1::text, w.id, $3::integer, $4::integer, $5::text, $6::text, $7::text, $8::real, coalesce(nullif(w.organisation_name, ''), w.name), w.certificate_signer, $9::timestamptz
    from workspaces w where w.id = $2::text`;

/** A stored result with the certificate it earned, if any. */
export function withCertificate(result: RecipientResult, certificate: PendingCertificate | undefined): RecipientResult {
  return certificate ? { ...result, certificateUrl: certificate.url } : result;
}
