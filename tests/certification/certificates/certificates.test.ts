import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { certificates, emailMessages, events, recipients } from "@/db/schema";
import { sendResultEmail } from "@/lib/certification/tests/follow-up";
import { submitAtDeadline, submitTest } from "@/lib/certification/taking/taking";
import { certificateUrl } from "@/lib/certification/certificates/issue";
import { createApiKey } from "@/lib/platform/keys";
import { setPlan } from "@/lib/platform/workspaces";
import * as testRoute from "@/app/api/v1/tests/[code]/route";
import * as certificateRoute from "@/app/api/v1/tests/[code]/recipients/[id]/certificate/route";
import * as exportRoute from "@/app/api/app/tests/[code]/export/route";
import * as workspaceRoute from "@/app/api/app/workspace/route";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { signInAs } from "../../helpers/session";
import { answerAll } from "../../helpers/taking";
import { recipientByToken } from "../../helpers/tokens";
import { certificateIdOf, finish, sendTest } from "./passing";

/**
 * Certificates from the trainer's side: issued at completion on a pass only (with the test's
 * `certificate`), `certificate_url` wherever a result goes (submit, the API's recipient view,
 * the CSV, test.completed, the result e-mail), the workspace's issuer settings frozen at
 * issue, and revoking (idempotent, 404 for another workspace or no certificate).
 */

vi.mock("@/lib/platform/auth/session", () => import("../../helpers/session"));

let database: TestDatabase;
let trainer: Trainer;
let stranger: Trainer;
const sameOrigin = { origin: "http://localhost", "x-forwarded-host": "localhost" };
const URL_SHAPE = /^http:\/\/localhost:\d+\/certificates\/[A-Za-z0-9_-]{22}$/;

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  stranger = await createTrainer(database.db);
  await setPlan(database.db, trainer.workspaceId, "pro");
  await setPlan(database.db, stranger.workspaceId, "pro");
});
afterAll(() => database.drop());

const certificateCall = (as: Trainer, code: string, id: number, method = "GET") =>
  call(method === "GET" ? certificateRoute.GET : certificateRoute.DELETE, `/api/v1/tests/${code}/recipients/${id}/certificate`, { method, key: as.secret, params: { code, id: String(id) } });
/** A CSV line's cells (quoted cells unquoted; no line breaks in these). */
const cells = (line: string) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].slice(0, -1).map(([, cell]) => (cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell));
const certificateRows = (recipientId: number) => database.db.select().from(certificates).where(eq(certificates.recipientId, recipientId));

async function patchWorkspace(body: unknown) {
  signInAs(trainer);
  try {
    return await call(workspaceRoute.PATCH, "/api/app/workspace", { method: "PATCH", body, headers: sameOrigin });
  } finally {
    signInAs(undefined);
  }
}

describe("issued at completion, on a pass only", () => {
  it("a pass gets one certificate with the frozen facts; a fail and a test without the setting get none", async () => {
    const sent = await sendTest(database.db, trainer, ["Ada Lovelace", "Bob Fail"]);
    const [ada, bob] = sent.people;
    const passed = await finish(database.db, ada.token, 4);
    expect(passed.passed).toBe(true);
    expect(passed.certificate_url).toMatch(URL_SHAPE);
    const failed = await finish(database.db, bob.token, 1);
    expect(failed).toMatchObject({ passed: false, certificate_url: null });

    const [row] = await certificateRows(ada.id);
    expect(row).toMatchObject({
      id: certificateIdOf(passed.certificate_url!),
      workspaceId: trainer.workspaceId,
      recipientName: "Ada Lovelace",
      testName: "Security+ mock exam",
      score: 100,
      organisation: trainer.workspace.name,
      signer: "",
      revokedAt: null,
    });
    expect(row.certificationName).toBe("Cloud Security Basics");
    expect(row.issuedAt.toISOString()).toBe((await recipientByToken(database.db, ada.token)).completedAt!.toISOString());
    expect(await certificateRows(bob.id)).toEqual([]);
    // The stored result carries the URL; submitting again answers the same.
    expect((await recipientByToken(database.db, ada.token)).result?.certificateUrl).toBe(passed.certificate_url);
    expect(await submitTest(database.db, ada.token)).toEqual(passed);
    expect(await certificateRows(ada.id)).toHaveLength(1);

    const plain = await sendTest(database.db, trainer, ["Cy Plain"], { certificate: false });
    const result = await finish(database.db, plain.people[0].token, 4);
    expect(result).toMatchObject({ passed: true, certificate_url: null });
    expect(await certificateRows(plain.people[0].id)).toEqual([]);
  });

  it("an attempt submitted by the deadline step is issued one too (the same completion)", async () => {
    const sent = await sendTest(database.db, trainer, ["Dee Deadline"], { time_limit_minutes: 1 });
    const [dee] = sent.people;
    await answerAll(database.db, dee.token, 4);
    await database.db.update(recipients).set({ deadlineAt: new Date(Date.now() - 1000) }).where(eq(recipients.id, dee.id));
    await submitAtDeadline(database.db, dee.id);
    const [row] = await certificateRows(dee.id);
    expect(row.recipientName).toBe("Dee Deadline");
    expect((await recipientByToken(database.db, dee.token)).result?.certificateUrl).toBe(certificateUrl(row.id));
  });

  it("ids are unguessable: 22 URL-safe characters, all different", async () => {
    const sent = await sendTest(database.db, trainer, ["A One", "B Two", "C Three"]);
    const urls = await Promise.all(sent.people.map((person) => finish(database.db, person.token, 4).then((result) => result.certificate_url!)));
    const ids = urls.map(certificateIdOf);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(ids).size).toBe(3);
  });

  it("without a name, the certificate names the address's local part, never the address", async () => {
    const sent = await sendTest(database.db, trainer, [""]);
    const result = await finish(database.db, sent.people[0].token, 4);
    const [row] = await certificateRows(sent.people[0].id);
    expect(result.certificate_url).toMatch(URL_SHAPE);
    expect(row.recipientName).toMatch(/^Holder\d+ \d+$/);
    expect(row.recipientName).not.toContain("@");
  });
});

describe("certificate_url wherever the result goes", () => {
  it("the API's recipient view, the CSV, test.completed and the result e-mail", async () => {
    const sent = await sendTest(database.db, trainer, ["Eve Everywhere", "Fay Fails"], { send_result: true });
    const [eve, fay] = sent.people;
    const url = (await finish(database.db, eve.token, 4)).certificate_url!;
    await finish(database.db, fay.token, 0);

    const test = await call(testRoute.GET, `/api/v1/tests/${sent.code}`, { key: trainer.secret, params: { code: sent.code } });
    const byId = new Map(test.body.recipients.map((r: { id: number; result: unknown }) => [r.id, r.result]));
    expect(byId.get(eve.id)).toMatchObject({ passed: true, certificate_url: url });
    expect(byId.get(fay.id)).toMatchObject({ passed: false, certificate_url: null });

    signInAs(trainer);
    const csv = await call(exportRoute.GET, `/api/app/tests/${sent.code}/export`, { params: { code: sent.code }, headers: sameOrigin }).finally(() => signInAs(undefined));
    expect(csv.status).toBe(200);
    const lines = (csv.body as string).split("\r\n").map(cells);
    const column = lines[0].indexOf("certificate_url");
    expect(column).toBeGreaterThan(0);
    expect(lines.find((line) => line[0] === eve.email)![column]).toBe(url);
    expect(lines.find((line) => line[0] === fay.email)![column]).toBe("");

    const completed = await database.db.select().from(events).where(and(eq(events.workspaceId, trainer.workspaceId), eq(events.type, "test.completed")));
    const eventOf = (email: string) => completed.find((event) => (event.data.recipient as { email: string }).email === email)!.data;
    expect(eventOf(eve.email)).toMatchObject({ passed: true, certificate_url: url });
    expect(eventOf(fay.email)).toMatchObject({ passed: false, certificate_url: null });

    for (const person of [eve, fay]) await sendResultEmail(database.db, person.id);
    const mails = await database.db.select().from(emailMessages).where(eq(emailMessages.kind, "test_result"));
    const mailOf = (id: number) => mails.find((mail) => mail.recipientId === id)!;
    expect(mailOf(eve.id).html).toContain(`${url}/pdf`);
    expect(mailOf(eve.id).text).toContain(url);
    expect(mailOf(fay.id).html).not.toContain("/certificates/");
  });
});

describe("the issuer: workspace settings, frozen at issue", () => {
  it("organisation_name and certificate_signer are validated, saved and printed on certificates issued afterwards only", async () => {
    const before = await sendTest(database.db, trainer, ["Gil Before"]);
    await finish(database.db, before.people[0].token, 4);

    const bad = await patchWorkspace({ organisation_name: "Acme\nAcademy", certificate_signer: "x".repeat(121) });
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields.map((f: { field: string }) => f.field).sort()).toEqual(["certificate_signer", "organisation_name"]);

    const saved = await patchWorkspace({ organisation_name: " Acme Academy ", certificate_signer: "Grace Hopper, Head of Training" });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ name: trainer.workspace.name, organisation_name: "Acme Academy", certificate_signer: "Grace Hopper, Head of Training" });
    // The name alone still renames, and leaves the issuer as it is.
    const renamed = await patchWorkspace({ name: "Renamed workspace" });
    expect(renamed.body).toMatchObject({ name: "Renamed workspace", organisation_name: "Acme Academy" });

    const after = await sendTest(database.db, trainer, ["Hal After"]);
    await finish(database.db, after.people[0].token, 4);
    expect((await certificateRows(after.people[0].id))[0]).toMatchObject({ organisation: "Acme Academy", signer: "Grace Hopper, Head of Training" });
    expect((await certificateRows(before.people[0].id))[0]).toMatchObject({ organisation: trainer.workspace.name, signer: "" });

    // Emptied: the workspace's name again.
    await patchWorkspace({ organisation_name: "", certificate_signer: "" });
    const later = await sendTest(database.db, trainer, ["Ivy Later"]);
    await finish(database.db, later.people[0].token, 4);
    expect((await certificateRows(later.people[0].id))[0]).toMatchObject({ organisation: "Renamed workspace", signer: "" });
  });
});

describe("revoking", () => {
  it("DELETE revokes (200, the certificate view), again answers the same date; GET reads it", async () => {
    const sent = await sendTest(database.db, trainer, ["Jo Revoked"]);
    const url = (await finish(database.db, sent.people[0].token, 4)).certificate_url!;
    const id = sent.people[0].id;

    const read = await certificateCall(trainer, sent.code, id);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: certificateIdOf(url), status: "valid", url, pdf_url: `${url}/pdf`, credential_url: `${url}/credential`, recipient_name: "Jo Revoked", score: 100, revoked_at: null });
    expect(JSON.stringify(read.body)).not.toContain("@");

    const revoked = await certificateCall(trainer, sent.code, id, "DELETE");
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ status: "revoked", url });
    expect(Date.parse(revoked.body.revoked_at)).toBeGreaterThan(Date.now() - 60_000);
    const again = await certificateCall(trainer, sent.code, id, "DELETE");
    expect(again.status).toBe(200);
    expect(again.body).toEqual(revoked.body);
    expect((await certificateCall(trainer, sent.code, id)).body).toEqual(revoked.body);
    // The result keeps its URL: the page it points to says revoked.
    expect((await recipientByToken(database.db, sent.people[0].token)).result?.certificateUrl).toBe(url);
  });

  it("another workspace, a recipient without a certificate, an unknown recipient or test: 404, nothing changes", async () => {
    const sent = await sendTest(database.db, trainer, ["Kim Kept", "Lou Failed"]);
    await finish(database.db, sent.people[0].token, 4);
    await finish(database.db, sent.people[1].token, 0);
    const [kim, lou] = sent.people;

    for (const method of ["GET", "DELETE"]) {
      expect((await certificateCall(stranger, sent.code, kim.id, method)).status).toBe(404);
      expect((await certificateCall(trainer, sent.code, lou.id, method)).body.error).toMatchObject({ code: "not_found", message: "Certificate not found." });
      expect((await certificateCall(trainer, sent.code, 2147483647, method)).status).toBe(404);
      expect((await certificateCall(trainer, "ZZZZZZZZ", kim.id, method)).status).toBe(404);
    }
    expect((await certificateRows(kim.id))[0].revokedAt).toBeNull();
  });

  it("a key with cert:read reads it but cannot revoke it (403)", async () => {
    const sent = await sendTest(database.db, trainer, ["Max Scoped"]);
    await finish(database.db, sent.people[0].token, 4);
    const { secret } = await createApiKey(database.db, trainer.workspaceId, { name: "reader", scopes: ["cert:read"] });
    const reader = { ...trainer, secret };
    expect((await certificateCall(reader, sent.code, sent.people[0].id)).status).toBe(200);
    expect((await certificateCall(reader, sent.code, sent.people[0].id, "DELETE")).status).toBe(403);
    expect((await certificateRows(sent.people[0].id))[0].revokedAt).toBeNull();
  });
});
