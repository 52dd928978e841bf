import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { catalogCertificationId } from "@/db/seed";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call, type CallOptions } from "../../helpers/http";
import { signInAs } from "../../helpers/session";

// The dashboard routes read the session: the trainer signed in with signInAs.
vi.mock("@/lib/platform/auth/session", () => import("../../helpers/session"));

const classesRoute = await import("@/app/api/v1/classes/route");
const classRoute = await import("@/app/api/v1/classes/[id]/route");
const invitationsRoute = await import("@/app/api/v1/classes/[id]/invitations/route");
const resendRoute = await import("@/app/api/v1/classes/[id]/invitations/[invitation_id]/resend/route");
const progressRoute = await import("@/app/api/v1/classes/[id]/progress/route");
const certificationsRoute = await import("@/app/api/v1/certifications/route");
const certificationRoute = await import("@/app/api/v1/certifications/[id]/route");
const domainsRoute = await import("@/app/api/v1/certifications/[id]/domains/route");
const domainRoute = await import("@/app/api/v1/certifications/[id]/domains/[domain_id]/route");
const domainQuestionsRoute = await import("@/app/api/v1/certifications/[id]/domains/[domain_id]/questions/route");
const questionsRoute = await import("@/app/api/v1/certifications/[id]/questions/route");
const questionRoute = await import("@/app/api/v1/certifications/[id]/questions/[question_id]/route");
const importRoute = await import("@/app/api/v1/certifications/[id]/import/route");

let database: TestDatabase;
let trainer: Trainer;
let other: Trainer;
let catalogId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  other = await createTrainer(database.db);
  catalogId = (await catalogCertificationId(database.db, "aws-clf-c02"))!;
});
afterAll(() => database.drop());

/** A same-origin dashboard call as `who`. */
function as(who: Trainer | undefined, handler: Parameters<typeof call>[0], path: string, options: CallOptions = {}) {
  signInAs(who);
  return call(handler, path, { ...options, headers: { origin: "http://localhost", host: "localhost", ...options.headers } });
}

describe("dashboard class routes", () => {
  let classId: string;

  it("refuses a signed-out caller and a cross-origin change", async () => {
    expect((await as(undefined, classesRoute.GET, "/api/v1/classes")).status).toBe(401);
    const crossOrigin = await as(trainer, classesRoute.POST, "/api/v1/classes", {
      method: "POST",
      body: { name: "X", certification_id: catalogId, emails: [] },
      headers: { origin: "https://evil.example" },
    });
    expect(crossOrigin.status).toBe(403);
  });

  it("creates a class within the free plan (1 class, 2 students), then answers 409 with the reason", async () => {
    const created = await as(trainer, classesRoute.POST, "/api/v1/classes", {
      method: "POST",
      body: { name: "Cloud cohort", certification_id: catalogId, emails: ["Ann@example.com", "bob@example.com"] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Cloud cohort", students: 0, pending_invitations: 2, emails: ["ann@example.com", "bob@example.com"] });
    classId = String(created.body.id);

    const second = await as(trainer, classesRoute.POST, "/api/v1/classes", { method: "POST", body: { name: "Another", certification_id: catalogId } });
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: "plan_limit_exceeded", message: expect.stringContaining("1 class") });

    const list = await as(trainer, classesRoute.GET, "/api/v1/classes");
    expect(list.body.data.map((c: { id: number }) => c.id)).toEqual([Number(classId)]);
  });

  it("reads the class, refuses an invitation beyond the plan, re-sends, reads progress", async () => {
    const read = await as(trainer, classRoute.GET, `/api/v1/classes/${classId}`, { params: { id: classId } });
    expect(read.status).toBe(200);
    expect(read.body.invitations.map((i: { email: string }) => i.email)).toEqual(["ann@example.com", "bob@example.com"]);

    const beyond = await as(trainer, invitationsRoute.POST, `/api/v1/classes/${classId}/invitations`, {
      method: "POST",
      params: { id: classId },
      body: { emails: ["carl@example.com"] },
    });
    expect(beyond.status).toBe(409);
    expect(beyond.body.error.message).toMatch(/2 students/);

    const invitationId = String(read.body.invitations[0].id);
    const resent = await as(trainer, resendRoute.POST, `/api/v1/classes/${classId}/invitations/${invitationId}/resend`, {
      method: "POST",
      params: { id: classId, invitation_id: invitationId },
    });
    expect(resent.status).toBe(202);
    expect(resent.body.id).toBe(Number(classId));

    const progress = await as(trainer, progressRoute.GET, `/api/v1/classes/${classId}/progress`, { params: { id: classId } });
    expect(progress.status).toBe(200);
    expect(progress.body.students.map((s: { email: string; tests_sent: number }) => [s.email, s.tests_sent])).toEqual([
      ["ann@example.com", 0],
      ["bob@example.com", 0],
    ]);
  });

  it("answers 404 to another workspace and to ids that cannot exist", async () => {
    for (const [handler, params] of [
      [classRoute.GET, { id: classId }],
      [progressRoute.GET, { id: classId }],
      [classRoute.GET, { id: "abc" }],
    ] as const) {
      const result = await as(other, handler, `/api/v1/classes/${params.id}`, { params });
      expect(result.status).toBe(404);
    }
    const invite = await as(other, invitationsRoute.POST, `/api/v1/classes/${classId}/invitations`, {
      method: "POST",
      params: { id: classId },
      body: { emails: ["x@example.com"] },
    });
    expect(invite.status).toBe(404);
  });
});

// The dashboard's editor calls the public routes with the session (no API key).
describe("dashboard own-certification routes", () => {
  it("creates, edits, adds domains and questions, imports CSV and deletes", async () => {
    const created = await as(trainer, certificationsRoute.POST, "/api/v1/certifications", {
      method: "POST",
      body: { name: "Acme Basics", vendor: "Acme", code: "AC-1", description: "", domains: ["Accounts", "Billing"] },
    });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    const [accounts] = created.body.domains;
    const accountsId = String(accounts.id);

    const patched = await as(trainer, certificationRoute.PATCH, `/api/v1/certifications/${id}`, {
      method: "PATCH",
      params: { id },
      body: { name: "Acme Basics 2", vendor: "Acme", code: "AC-2", description: "New." },
    });
    expect(patched.body).toMatchObject({ name: "Acme Basics 2", code: "AC-2", own: true });

    const domain = await as(trainer, domainsRoute.POST, `/api/v1/certifications/${id}/domains`, { method: "POST", params: { id }, body: { name: "Security" } });
    expect(domain.status).toBe(201);
    const renamed = await as(trainer, domainRoute.PATCH, `/api/v1/certifications/${id}/domains/${accountsId}`, {
      method: "PATCH",
      params: { id, domain_id: accountsId },
      body: { name: "Users" },
    });
    expect(renamed.body).toEqual({ id: accounts.id, name: "Users", questions: 0 });

    const question = await as(trainer, domainQuestionsRoute.POST, `/api/v1/certifications/${id}/domains/${accountsId}/questions`, {
      method: "POST",
      params: { id, domain_id: accountsId },
      body: { prompt: "Q?", options: ["a", "b"], correct: 1 },
    });
    expect(question.status).toBe(201);
    const questionId = String(question.body.id);
    const edited = await as(trainer, questionRoute.PATCH, `/api/v1/certifications/${id}/questions/${questionId}`, {
      method: "PATCH",
      params: { id, question_id: questionId },
      body: { prompt: "Q2?", options: ["a", "b", "c"], correct: 2, explanation: "c." },
    });
    expect(edited.body).toMatchObject({ prompt: "Q2?", correct: 2 });

    // Bad rows are skipped with their line and reason; the good ones are imported.
    const header = "domain,question,option_a,option_b,option_c,option_d,correct,explanation";
    const mixedCsv = await as(trainer, importRoute.POST, `/api/v1/certifications/${id}/import`, {
      method: "POST",
      params: { id },
      query: { format: "csv" },
      body: `${header}\nUsers,Q,a,b,,,Z,\n,Q3,a,b,,,B,\nNetworking,Q4,a,b,c,d,4,\n`,
    });
    expect(mixedCsv.status, JSON.stringify(mixedCsv.body)).toBe(200);
    expect(mixedCsv.body).toMatchObject({ format: "csv", dry_run: false, imported: 2 });
    expect(mixedCsv.body.domains.map((d: { name: string; created: boolean; questions: number }) => [d.name, d.created, d.questions])).toEqual([
      ["General", true, 1],
      ["Networking", true, 1],
    ]);
    expect(mixedCsv.body.skipped).toEqual([{ line: 2, name: null, reason: expect.stringContaining('found "Z"') }]);

    // A file that cannot be read as CSV imports nothing.
    const brokenCsv = await as(trainer, importRoute.POST, `/api/v1/certifications/${id}/import`, {
      method: "POST",
      params: { id },
      query: { format: "csv" },
      body: `${header}\nUsers,"unclosed,a,b,,,A,\n`,
    });
    expect(brokenCsv.status).toBe(422);
    expect(brokenCsv.body.error.fields.map((f: { field: string }) => f.field)).toEqual(["file"]);

    const listed = await as(trainer, questionsRoute.GET, `/api/v1/certifications/${id}/questions`, { params: { id } });
    expect(listed.body.data.map((q: { prompt: string }) => q.prompt)).toEqual(["Q2?", "Q3", "Q4"]);

    const deleted = await as(trainer, questionRoute.DELETE, `/api/v1/certifications/${id}/questions/${questionId}`, {
      method: "DELETE",
      params: { id, question_id: questionId },
    });
    expect(deleted.status).toBe(204);

    // Another workspace sees none of it; a catalog certification is not editable.
    expect((await as(other, certificationRoute.GET, `/api/v1/certifications/${id}`, { params: { id } })).status).toBe(404);
    expect((await as(other, questionsRoute.GET, `/api/v1/certifications/${id}/questions`, { params: { id } })).status).toBe(404);
    const catalog = String(catalogId);
    expect((await as(trainer, questionsRoute.GET, `/api/v1/certifications/${catalog}/questions`, { params: { id: catalog } })).status).toBe(404);
    const catalogEdit = await as(trainer, certificationRoute.PATCH, `/api/v1/certifications/${catalog}`, { method: "PATCH", params: { id: catalog }, body: { name: "Mine" } });
    expect(catalogEdit.status).toBe(404);

    // The editor's delete: unused, so it is removed.
    expect((await as(trainer, certificationRoute.DELETE, `/api/v1/certifications/${id}`, { method: "DELETE", params: { id } })).status).toBe(204);
    expect((await as(trainer, certificationRoute.GET, `/api/v1/certifications/${id}`, { params: { id } })).status).toBe(404);
  });

  it("answers 422 listing the fields of a bad question", async () => {
    const created = await as(trainer, certificationsRoute.POST, "/api/v1/certifications", { method: "POST", body: { name: "X", vendor: "Y", domains: ["D"] } });
    const id = String(created.body.id);
    const domainId = String(created.body.domains[0].id);
    const result = await as(trainer, domainQuestionsRoute.POST, `/api/v1/certifications/${id}/domains/${domainId}/questions`, {
      method: "POST",
      params: { id, domain_id: domainId },
      body: { prompt: "Q", options: ["a", "a", "b"], correct: 5 },
    });
    expect(result.status).toBe(422);
    expect(result.body.error.fields.map((f: { field: string }) => f.field).sort()).toEqual(["correct", "options.1"]);
  });
});
