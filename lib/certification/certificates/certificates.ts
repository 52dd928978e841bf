import { and, eq, exists, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { certificates, recipients, workspaces, type Certificate } from "@/db/schema";
import { notFound } from "@/lib/kernel/errors";
import { isIdShaped } from "@/lib/kernel/values";
import { findTest } from "@/lib/certification/tests/tests";
import { issuerId } from "./credential";
import { certificateUrl, isCertificateIdShaped } from "./issue";
import type { CertificateView } from "./schemas";

/** A certificate by its public id; undefined when the id is not one (no error: the public pages answer their own not-found). */
export async function findCertificate(db: Db, id: string): Promise<Certificate | undefined> {
  if (!isCertificateIdShaped(id)) return undefined;
  const [certificate] = await db.select().from(certificates).where(eq(certificates.id, id));
  return certificate;
}

export function toCertificateView(certificate: Certificate): CertificateView {
  const url = certificateUrl(certificate.id);
  return {
    id: certificate.id,
    status: certificate.revokedAt ? "revoked" : "valid",
    url,
    pdf_url: `${url}/pdf`,
    credential_url: `${url}/credential`,
    recipient_name: certificate.recipientName,
    test_name: certificate.testName,
    certification: certificate.certificationName,
    score: certificate.score,
    organisation: certificate.organisation,
    signer: certificate.signer,
    issued_at: certificate.issuedAt.toISOString(),
    revoked_at: certificate.revokedAt?.toISOString() ?? null,
  };
}

/** The certificate of one recipient of the workspace's test; 404 for an unknown test or recipient, or one without a certificate. */
async function recipientCertificate(db: Db, workspaceId: string, code: string, recipientId: number): Promise<Certificate> {
  const test = await findTest(db, workspaceId, code);
  const [row] = await db
    .select({ certificate: certificates })
    .from(certificates)
    .innerJoin(recipients, eq(recipients.id, certificates.recipientId))
    .where(and(eq(certificates.recipientId, recipientId), eq(recipients.testId, test.id), eq(certificates.workspaceId, workspaceId)));
  if (!row) throw notFound("Certificate");
  return row.certificate;
}

/** GET …/recipients/{id}/certificate: the certificate as its trainer reads it. */
export async function getCertificate(db: Db, workspaceId: string, code: string, recipientId: number): Promise<CertificateView> {
  return toCertificateView(await recipientCertificate(db, workspaceId, code, recipientId));
}

/**
 * DELETE …/recipients/{id}/certificate: revokes it. Idempotent: a revoked certificate keeps
 * its first revocation date and is answered the same. The row stays (the public page says
 * revoked, with the date); nothing else changes — the result keeps its `certificate_url`.
 */
export async function revokeCertificate(db: Db, workspaceId: string, code: string, recipientId: number): Promise<CertificateView> {
  const certificate = await recipientCertificate(db, workspaceId, code, recipientId);
  if (certificate.revokedAt) return toCertificateView(certificate);
  const [revoked] = await db
    .update(certificates)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(certificates.id, certificate.id), isNull(certificates.revokedAt)))
    .returning();
  // Revoked at the same moment by another request: answer as it stands.
  return toCertificateView(revoked ?? (await recipientCertificate(db, workspaceId, code, recipientId)));
}

/**
 * The issuer's Open Badges profile (a credential's `issuer.id` resolves to it): the
 * organisation name as it is now. Only a workspace that issued a certificate has one, so the
 * route tells nobody whether other workspaces exist.
 */
export async function issuerProfile(db: Db, workspaceId: string): Promise<{ id: string; type: string[]; name: string } | undefined> {
  if (!isIdShaped(workspaceId, "ws")) return undefined;
  const [row] = await db
    .select({ name: workspaces.name, organisation: workspaces.organisationName })
    .from(workspaces)
    .where(and(eq(workspaces.id, workspaceId), exists(db.select({ one: sql`1` }).from(certificates).where(eq(certificates.workspaceId, workspaceId)))));
  if (!row) return undefined;
  return { id: issuerId({ workspaceId }), type: ["Profile"], name: row.organisation || row.name };
}
