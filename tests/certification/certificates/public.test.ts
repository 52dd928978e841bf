import { eq } from "drizzle-orm";
import { createLocalJWKSet, decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify, type JWK } from "jose";
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream } from "pdf-lib";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { certificates } from "@/db/schema";
import { setPlan } from "@/lib/platform/workspaces";
import { updateWorkspace } from "@/lib/platform/workspaces/settings";
import { revokeCertificate } from "@/lib/certification/certificates/certificates";
import * as pdfRoute from "@/app/certificates/[id]/pdf/route";
import * as credentialRoute from "@/app/certificates/[id]/credential/route";
import * as statusRoute from "@/app/certificates/[id]/status/route";
import * as jwksRoute from "@/app/.well-known/jwks.json/route";
import * as issuerRoute from "@/app/issuers/[id]/route";
import CertificatePage from "@/app/certificates/[id]/page";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { certificateIdOf, finish, sendTest } from "./passing";

// The page takes the reader's locale from next-intl's request configuration, which only a Next.js request has: English here.
vi.mock("next-intl/server", () => ({ getLocale: async () => "en" }));

/**
 * What anyone sees of a certificate, without an account: the verification page (valid or
 * revoked with the date, no e-mail address), the PDF, the Open Badges 3.0 credential as a
 * VC-JWT verified against the published key set, key rotation, the revocation list and the
 * issuer's profile. Unknown or malformed ids: not found.
 */

let database: TestDatabase;
let trainer: Trainer;

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  await setPlan(database.db, trainer.workspaceId, "pro");
  await updateWorkspace(database.db, trainer.workspaceId, { organisation_name: "Acme Academy", certificate_signer: "Grace Hopper, Head of Training" });
});
afterEach(() => {
  vi.unstubAllEnvs();
});
afterAll(() => database.drop());

const get = async (route: { GET: (req: Request, context: { params: Promise<{ id: string }> }) => Promise<Response> }, id: string, suffix: string) =>
  route.GET(new Request(`http://localhost/certificates/${id}/${suffix}`), { params: Promise.resolve({ id }) });
const jwks = async () => (await (await jwksRoute.GET()).json()) as { keys: JWK[] };

/** A passing recipient's certificate: its id, and the recipient's e-mail address (which must never show). */
async function issued(name: string) {
  const sent = await sendTest(database.db, trainer, [name]);
  const result = await finish(database.db, sent.people[0].token, 3);
  return { id: certificateIdOf(result.certificate_url!), url: result.certificate_url!, email: sent.people[0].email, code: sent.code, recipientId: sent.people[0].id };
}

async function page(id: string): Promise<string> {
  return renderToStaticMarkup(await CertificatePage({ params: Promise.resolve({ id }) }));
}

describe("the verification page", () => {
  it("shows Valid and the facts, never the e-mail address; revoked: Revoked with the date", async () => {
    const { id, email, code, recipientId } = await issued("Ada Lovelace");
    const html = await page(id);
    expect(html).toContain('data-status="valid"');
    expect(html).toContain(">Valid<");
    for (const fact of ["Ada Lovelace", "Security+ mock exam", "75%", "Acme Academy", "Grace Hopper, Head of Training", id, `/certificates/${id}/pdf`]) expect(html).toContain(fact);
    expect(html).not.toContain(email);
    expect(html).not.toContain("@");

    const revoked = await revokeCertificate(database.db, trainer.workspaceId, code, recipientId);
    const after = await page(id);
    expect(after).toContain('data-status="revoked"');
    const day = new Date(revoked.revoked_at!).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
    expect(after).toContain(`revoked this certificate on ${day}`);
  });

  it("an unknown or malformed id is the not-found page", async () => {
    for (const id of ["AAAAAAAAAAAAAAAAAAAAAA", "short", "../../etc", "x".repeat(300)]) {
      await expect(page(id)).rejects.toThrow(/NEXT_HTTP_ERROR_FALLBACK;404|NEXT_NOT_FOUND/);
    }
  });
});

/** The decoded content streams of a PDF's first page. */
function pageText(pdf: PDFDocument): string {
  const contents = pdf.getPage(0).node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => pdf.context.lookup(ref)) : [contents];
  return streams.map((stream) => Buffer.from(decodePDFRawStream(stream as PDFRawStream).decode()).toString("latin1")).join("\n");
}
const hex = (text: string) => Buffer.from(text, "latin1").toString("hex").toUpperCase();

describe("the PDF", () => {
  it("is an A4 landscape PDF naming the holder, to download", async () => {
    const { id } = await issued("Ada Lovelace");
    const response = await get(pdfRoute, id, "pdf");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="certificate-${id}.pdf"`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Buffer.from(bytes.slice(0, 5)).toString("latin1")).toBe("%PDF-");
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBe(1);
    const { width, height } = pdf.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([842, 595]);
    expect(pdf.getTitle()).toBe("Certificate: Ada Lovelace — Security+ mock exam");
    expect(pdf.getAuthor()).toBe("Acme Academy");
    // The page draws the name and the verification URL (standard fonts write text as WinAnsi hex strings).
    const drawn = pageText(pdf);
    for (const text of ["Ada Lovelace", "Acme Academy", "Grace Hopper, Head of Training", `/certificates/${id}`]) expect(drawn).toContain(hex(text));
  });

  it("a name outside the standard fonts' characters does not break it (transliterated on the page, exact in the title)", async () => {
    const name = "Łukasz Żółć 王小明 Ђорђе";
    const { id } = await issued(name);
    const response = await get(pdfRoute, id, "pdf");
    expect(response.status).toBe(200);
    const pdf = await PDFDocument.load(new Uint8Array(await response.arrayBuffer()));
    expect(pdf.getTitle()).toBe(`Certificate: ${name} — Security+ mock exam`);
    expect(pageText(pdf)).toContain(hex("Lukasz Zólc ??? ?????"));
  });

  it("a 200-character name stays inside the frame: shrunk, then cut with an ellipsis (found from outside: it ran off the page)", async () => {
    const name = `Zoë ${"W".repeat(195)}`;
    const { id } = await issued(name);
    const pdf = await PDFDocument.load(new Uint8Array(await (await get(pdfRoute, id, "pdf")).arrayBuffer()));
    const drawn = pageText(pdf);
    // Every text line is placed by a text matrix `1 0 0 1 x y Tm`: none may start left of the inner frame.
    const starts = [...drawn.matchAll(/1 0 0 1 (-?[\d.]+) (-?[\d.]+) Tm/g)].map((match) => Number(match[1]));
    expect(starts.length).toBeGreaterThan(5);
    expect(Math.min(...starts)).toBeGreaterThanOrEqual(34);
    expect(drawn).toContain(hex("Zoë WWW"));
    expect(drawn).toContain(hex("W…"));
    expect(pdf.getTitle()).toBe(`Certificate: ${name} — Security+ mock exam`);
  });

  it("unknown → 404 in the error shape", async () => {
    const response = await get(pdfRoute, "AAAAAAAAAAAAAAAAAAAAAA", "pdf");
    expect(response.status).toBe(404);
    expect((await response.json()).error).toMatchObject({ code: "not_found", message: "Certificate not found." });
  });
});

describe("the Open Badges 3.0 credential", () => {
  it("is a VC-JWT that verifies against /.well-known/jwks.json, with the facts and no e-mail address", async () => {
    const { id, url, email } = await issued("Ada Lovelace");
    const response = await get(credentialRoute, id, "credential");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vc+jwt");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const jwt = await response.text();
    expect(jwt).not.toContain(Buffer.from(email).toString("base64url").slice(0, 12));

    const keySet = await jwks();
    expect(keySet.keys.length).toBeGreaterThanOrEqual(1);
    for (const key of keySet.keys) {
      expect(key).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig" });
      expect(key).not.toHaveProperty("d");
    }
    const { payload, protectedHeader } = await jwtVerify(jwt, createLocalJWKSet(keySet), { algorithms: ["EdDSA"], typ: "vc+jwt" });
    expect(protectedHeader.kid).toBe(keySet.keys[0].kid);
    expect(payload).toMatchObject({
      "@context": ["https://www.w3.org/ns/credentials/v2", "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json"],
      id: url,
      jti: url,
      type: ["VerifiableCredential", "AchievementCredential"],
      issuer: { type: ["Profile"], name: "Acme Academy" },
      credentialSubject: {
        type: ["AchievementSubject"],
        identifier: [{ type: "IdentityObject", identityHash: "Ada Lovelace", identityType: "name", hashed: false }],
        achievement: { type: ["Achievement"], name: "Security+ mock exam" },
        result: [{ type: ["Result"], value: "75" }],
      },
      credentialStatus: { id: `${url}/status`, type: "1EdTechRevocationList" },
    });
    expect(payload.iss).toBe((payload.issuer as { id: string }).id);
    const [row] = await database.db.select().from(certificates).where(eq(certificates.id, id));
    expect(payload.validFrom).toBe(row.issuedAt.toISOString());
    expect(payload.nbf).toBe(Math.floor(row.issuedAt.getTime() / 1000));
    expect(JSON.stringify(payload)).not.toContain(email);

    // A tampered token does not verify.
    const [header, body, signature] = jwt.split(".");
    const forged = Buffer.from(JSON.stringify({ ...payload, credentialSubject: { ...(payload.credentialSubject as object), identifier: [] } })).toString("base64url");
    await expect(jwtVerify(`${header}.${forged}.${signature}`, createLocalJWKSet(keySet))).rejects.toThrow();
    void body;
  });

  it("the issuer id resolves to the organisation's profile; an unknown issuer is 404", async () => {
    const { id } = await issued("Ada Lovelace");
    const { payload } = await jwtVerify(await (await get(credentialRoute, id, "credential")).text(), createLocalJWKSet(await jwks()));
    const issuerId = payload.iss!;
    expect(issuerId).toMatch(/\/issuers\/ws_[0-9A-Z]{26}$/);
    const workspaceId = issuerId.split("/issuers/")[1];
    const profile = await issuerRoute.GET(new Request(issuerId), { params: Promise.resolve({ id: workspaceId }) });
    expect(await profile.json()).toMatchObject({ id: issuerId, type: ["Profile"], name: "Acme Academy" });
    const other = await createTrainer(database.db);
    expect((await issuerRoute.GET(new Request("http://localhost/issuers/x"), { params: Promise.resolve({ id: other.workspaceId }) })).status).toBe(404);
    expect((await issuerRoute.GET(new Request("http://localhost/issuers/x"), { params: Promise.resolve({ id: "nope" }) })).status).toBe(404);
  });

  it("revoked: the credential still verifies, and its status list names it revoked", async () => {
    const { id, url, code, recipientId } = await issued("Bea Revoked");
    const before = await (await get(statusRoute, id, "status")).json();
    expect(before).toMatchObject({ id: `${url}/status`, revokedCredentials: [], status: "valid", revoked: false, revoked_at: null });
    const revoked = await revokeCertificate(database.db, trainer.workspaceId, code, recipientId);
    const after = await (await get(statusRoute, id, "status")).json();
    expect(after).toMatchObject({ revokedCredentials: [{ id: url, revoked: true }], status: "revoked", revoked: true, revoked_at: revoked.revoked_at });
    const jwt = await (await get(credentialRoute, id, "credential")).text();
    await expect(jwtVerify(jwt, createLocalJWKSet(await jwks()))).resolves.toBeDefined();
    expect((await get(statusRoute, "AAAAAAAAAAAAAAAAAAAAAA", "status")).status).toBe(404);
    expect((await get(credentialRoute, "AAAAAAAAAAAAAAAAAAAAAA", "credential")).status).toBe(404);
  });
});

describe("signing keys", () => {
  const privateJwk = async () => {
    const { privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
    const { kty, crv, x, d } = await exportJWK(privateKey);
    return { kty, crv, x, d };
  };

  it("without CREDENTIAL_SIGNING_KEYS: one key derived from AUTH_SECRET, the same every time", async () => {
    const first = await jwks();
    expect(first.keys).toHaveLength(1);
    expect(await jwks()).toEqual(first);
  });

  it("rotation: a credential signed by an older configured key still verifies once a new key signs", async () => {
    const { id } = await issued("Cy Rotated");
    const older = await privateJwk();
    const newer = await privateJwk();
    const derived = (await jwks()).keys[0];

    vi.stubEnv("CREDENTIAL_SIGNING_KEYS", JSON.stringify([older]));
    const oldToken = await (await get(credentialRoute, id, "credential")).text();
    const oldSet = await jwks();
    expect(oldSet.keys.map((key) => key.x)).toEqual([older.x, derived.x]);
    expect(decodeProtectedHeader(oldToken).kid).toBe(oldSet.keys[0].kid);

    vi.stubEnv("CREDENTIAL_SIGNING_KEYS", JSON.stringify([newer, older]));
    const rotated = await jwks();
    expect(rotated.keys.map((key) => key.x)).toEqual([newer.x, older.x, derived.x]);
    await expect(jwtVerify(oldToken, createLocalJWKSet(rotated))).resolves.toBeDefined();
    const newToken = await (await get(credentialRoute, id, "credential")).text();
    expect(decodeProtectedHeader(newToken).kid).toBe(rotated.keys[0].kid);
    await expect(jwtVerify(newToken, createLocalJWKSet(rotated))).resolves.toBeDefined();

    // Once the older key is dropped from the list, what it signed no longer verifies.
    vi.stubEnv("CREDENTIAL_SIGNING_KEYS", JSON.stringify([newer]));
    await expect(jwtVerify(oldToken, createLocalJWKSet(await jwks()))).rejects.toThrow();
  });

  it("a malformed CREDENTIAL_SIGNING_KEYS is a configuration error naming the variable", async () => {
    const { parseConfig } = await import("@/lib/kernel/config/config");
    for (const bad of ["not json", "[]", '[{"kty":"RSA"}]', JSON.stringify([{ kty: "OKP", crv: "Ed25519", x: "short", d: "short" }])]) {
      expect(() => parseConfig({ ...process.env, CREDENTIAL_SIGNING_KEYS: bad })).toThrow(/CREDENTIAL_SIGNING_KEYS/);
    }
    const key = await privateJwk();
    expect(() => parseConfig({ ...process.env, CREDENTIAL_SIGNING_KEYS: JSON.stringify([key, key]) })).toThrow(/twice/);
    expect(parseConfig({ ...process.env, CREDENTIAL_SIGNING_KEYS: JSON.stringify([key]) }).credentialSigningKeys).toEqual([key]);
  });
});

describe("methods the public files do not serve", () => {
  it("answer 405 in the error shape with Allow, open to any origin; OPTIONS 204 (found from outside: an empty 405)", async () => {
    const routes = [pdfRoute, credentialRoute, statusRoute, issuerRoute, jwksRoute] as unknown as Record<string, (req: Request) => Response>[];
    for (const route of routes) {
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        const response = route[method](new Request("http://localhost/certificates/x/pdf", { method }));
        expect(response.status, method).toBe(405);
        expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
        expect(response.headers.get("access-control-allow-origin")).toBe("*");
        expect((await response.json()).error.code).toBe("method_not_allowed");
      }
      const preflight = route.OPTIONS(new Request("http://localhost/certificates/x/credential", { method: "OPTIONS" }));
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
      expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    }
  });
});
