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
const myCertificationsRoute = await import("@/app/api/app/my-certifications/route");
const myCertificationRoute = await import("@/app/api/app/my-certifications/[id]/route");
const myDomainsRoute = await import("@/app/api/app/my-certifications/[id]/domains/route");
const myQuestionsRoute = await import("@/app/api/app/my-certifications/[id]/questions/route");
const myImportRoute = await import("@/app/api/app/my-certifications/[id]/import/route");
const domainRoute = await import("@/app/api/app/my-certifications/domains/[domain_id]/route");
const domainQuestionsRoute = await import("@/app/api/app/my-certifications/domains/[domain_id]/questions/route");
const questionRoute = await import("@/app/api/app/my-certifications/questions/[question_id]/route");

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

describe("dashboard own-certification routes", () => {
  it("creates, edits, adds domains and questions, imports CSV and deletes", async () => {
    const created = await as(trainer, myCertificationsRoute.POST, "/api/app/my-certifications", {
      method: "POST",
      body: { name: "Acme Basics", vendor: "Acme", code: "AC-1", description: "", domains: ["Accounts", "Billing"] },
    });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    const [accounts] = created.body.domains;

    const patched = await as(trainer, myCertificationRoute.PATCH, `/api/app/my-certifications/${id}`, {
      method: "PATCH",
      params: { id },
      body: { name: "Acme Basics 2", vendor: "Acme", code: "AC-2", description: "New." },
    });
    expect(patched.body).toMatchObject({ name: "Acme Basics 2", code: "AC-2", own: true });

    const domain = await as(trainer, myDomainsRoute.POST, `/api/app/my-certifications/${id}/domains`, { method: "POST", params: { id }, body: { name: "Security" } });
    expect(domain.status).toBe(201);
    const renamed = await as(trainer, domainRoute.PATCH, `/api/app/my-certifications/domains/${accounts.id}`, {
      method: "PATCH",
      params: { domain_id: String(accounts.id) },
      body: { name: "Users" },
    });
    expect(renamed.body).toEqual({ id: accounts.id, name: "Users", questions: 0 });

    const question = await as(trainer, domainQuestionsRoute.POST, `/api/app/my-certifications/domains/${accounts.id}/questions`, {
      method: "POST",
      params: { domain_id: String(accounts.id) },
      body: { prompt: "Q?", options: ["a", "b"], correct: 1 },
    });
    expect(question.status).toBe(201);
    const questionId = String(question.body.id);
    const edited = await as(trainer, questionRoute.PATCH, `/api/app/my-certifications/questions/${questionId}`, {
      method: "PATCH",
      params: { question_id: questionId },
      body: { prompt: "Q2?", options: ["a", "b", "c"], correct: 2, explanation: "c." },
    });
    expect(edited.body).toMatchObject({ prompt: "Q2?", correct: 2 });

    const badCsv = await as(trainer, myImportRoute.POST, `/api/app/my-certifications/${id}/import`, {
      method: "POST",
      params: { id },
      body: { csv: "domain,question,option_a,option_b,option_c,option_d,correct,explanation\nUsers,Q,a,b,,,Z,\n,Q,a,b,,,A,\n" },
    });
    expect(badCsv.status).toBe(422);
    expect(badCsv.body.error.fields.map((f: { field: string }) => f.field)).toEqual(["rows.1.correct", "rows.2.domain"]);

    const goodCsv = await as(trainer, myImportRoute.POST, `/api/app/my-certifications/${id}/import`, {
      method: "POST",
      params: { id },
      body: { csv: "domain,question,option_a,option_b,option_c,option_d,correct,explanation\nUsers,Q3,a,b,,,B,\nNetworking,Q4,a,b,c,d,4,\n" },
    });
    expect(goodCsv.status).toBe(201);
    expect(goodCsv.body).toEqual({ imported: 2, created_domains: ["Networking"] });

    const listed = await as(trainer, myQuestionsRoute.GET, `/api/app/my-certifications/${id}/questions`, { params: { id } });
    expect(listed.body.data.map((q: { prompt: string }) => q.prompt)).toEqual(["Q2?", "Q3", "Q4"]);

    const deleted = await as(trainer, questionRoute.DELETE, `/api/app/my-certifications/questions/${questionId}`, { method: "DELETE", params: { question_id: questionId } });
    expect(deleted.status).toBe(204);

    // Another workspace sees none of it; a catalog certification is not editable.
    expect((await as(other, myCertificationRoute.GET, `/api/app/my-certifications/${id}`, { params: { id } })).status).toBe(404);
    expect((await as(other, myQuestionsRoute.GET, `/api/app/my-certifications/${id}/questions`, { params: { id } })).status).toBe(404);
    const catalog = String(catalogId);
    expect((await as(trainer, myCertificationRoute.GET, `/api/app/my-certifications/${catalog}`, { params: { id: catalog } })).status).toBe(404);
  });

  it("answers 422 listing the fields of a bad question", async () => {
    const created = await as(trainer, myCertificationsRoute.POST, "/api/app/my-certifications", { method: "POST", body: { name: "X", vendor: "Y", domains: ["D"] } });
    const domainId = String(created.body.domains[0].id);
    const result = await as(trainer, domainQuestionsRoute.POST, `/api/app/my-certifications/domains/${domainId}/questions`, {
      method: "POST",
      params: { domain_id: domainId },
      body: { prompt: "Q", options: ["a", "a", "b"], correct: 5 },
    });
    expect(result.status).toBe(422);
    expect(result.body.error.fields.map((f: { field: string }) => f.field).sort()).toEqual(["correct", "options.1"]);
  });
});
