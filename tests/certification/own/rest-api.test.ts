import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray, sql } from "drizzle-orm";
import { certifications, domains, questions } from "@/db/schema";
import { createApiKey } from "@/lib/platform/keys";
import * as certificationsRoute from "@/app/api/v1/certifications/route";
import * as certificationRoute from "@/app/api/v1/certifications/[id]/route";
import * as domainsRoute from "@/app/api/v1/certifications/[id]/domains/route";
import * as domainRoute from "@/app/api/v1/certifications/[id]/domains/[domain_id]/route";
import * as domainQuestionsRoute from "@/app/api/v1/certifications/[id]/domains/[domain_id]/questions/route";
import * as questionsRoute from "@/app/api/v1/certifications/[id]/questions/route";
import * as questionRoute from "@/app/api/v1/certifications/[id]/questions/[question_id]/route";
import * as testsRoute from "@/app/api/v1/tests/route";
import * as testRoute from "@/app/api/v1/tests/[code]/route";
import * as analysisRoute from "@/app/api/v1/tests/[code]/analysis/route";
import * as classesRoute from "@/app/api/v1/classes/route";
import { submitTest } from "@/lib/certification/taking/taking";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { catalogCertification, createTrainer, type Trainer } from "../../helpers/fixtures";
import { call, type CallOptions } from "../../helpers/http";
import { answerAll, startAndOpen, tokenOf } from "../../helpers/taking";

/**
 * The own-certification editor through its public routes (/api/v1/certifications/…) with an
 * API key: the whole life of a certification, its domains and questions, the scopes, and the
 * two ways a certification is deleted (removed, or retired while a test uses it).
 * PGlite and PostgreSQL.
 */

let database: TestDatabase;
let trainer: Trainer;
let other: Trainer;
let reader: Trainer;
let catalogId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  other = await createTrainer(database.db);
  // A workspace whose one key may only read.
  reader = await createTrainer(database.db, { scopes: ["cert:read"] });
  ({ certificationId: catalogId } = await catalogCertification(database.db));
});
afterAll(() => database.drop());

type Handler = Parameters<typeof call>[0];
const send = (handler: Handler, method: string, path: string, params: Record<string, string | number>, options: CallOptions = {}, key = trainer.secret) =>
  call(handler, path, { method, key, params: Object.fromEntries(Object.entries(params).map(([name, value]) => [name, String(value)])), ...options });

const fieldsOf = (result: { body: { error?: { fields?: { field: string }[] } } }) => (result.body.error?.fields ?? []).map((f) => f.field);

async function createCertification(body: unknown = { name: "Acme Cloud", vendor: "Acme", domains: ["Compute"] }, key = trainer.secret) {
  return send(certificationsRoute.POST, "POST", "/api/v1/certifications", {}, { body }, key);
}
const addDomain = (id: number, name: string, key = trainer.secret) => send(domainsRoute.POST, "POST", `/api/v1/certifications/${id}/domains`, { id }, { body: { name } }, key);
const addQuestion = (id: number, domainId: number, body: unknown, key = trainer.secret) =>
  send(domainQuestionsRoute.POST, "POST", `/api/v1/certifications/${id}/domains/${domainId}/questions`, { id, domain_id: domainId }, { body }, key);
const listQuestions = (id: number, query: Record<string, string | number> = {}, key = trainer.secret) =>
  send(questionsRoute.GET, "GET", `/api/v1/certifications/${id}/questions`, { id }, { query }, key);
const patchQuestion = (id: number, questionId: number, body: unknown, key = trainer.secret) =>
  send(questionRoute.PATCH, "PATCH", `/api/v1/certifications/${id}/questions/${questionId}`, { id, question_id: questionId }, { body }, key);
const deleteQuestion = (id: number, questionId: number, key = trainer.secret) =>
  send(questionRoute.DELETE, "DELETE", `/api/v1/certifications/${id}/questions/${questionId}`, { id, question_id: questionId }, {}, key);
const getCertification = (id: number, key = trainer.secret) => send(certificationRoute.GET, "GET", `/api/v1/certifications/${id}`, { id }, {}, key);
const patchCertification = (id: number, body: unknown, key = trainer.secret) => send(certificationRoute.PATCH, "PATCH", `/api/v1/certifications/${id}`, { id }, { body }, key);
const deleteCertification = (id: number, key = trainer.secret) => send(certificationRoute.DELETE, "DELETE", `/api/v1/certifications/${id}`, { id }, {}, key);

const single = { prompt: "Which service runs containers?", options: ["Boxes", "Crates", "Pods"], correct: 2, explanation: "Pods run containers." };
const multiple = { prompt: "Which two are regions?", type: "multiple", options: ["eu-1", "blue", "us-2", "green"], correct: [2, 0], explanation: "" };

async function storedQuestion(id: number) {
  const [row] = await database.db.select().from(questions).where(eq(questions.id, id));
  return row;
}

describe("an own certification through the API, step by step", () => {
  let id: number;
  let compute: number;
  let storage: number;
  let singleId: number;
  let multipleId: number;

  it("creates it (201) with its first domains, and adds a domain at the end", async () => {
    const created = await createCertification({ name: "Acme Cloud", vendor: "Acme", code: "AC-100", domains: ["Compute"] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name: "Acme Cloud", vendor: "Acme", code: "AC-100", description: "", own: true, questions: 0 });
    id = created.body.id;
    compute = created.body.domains[0].id;

    const added = await addDomain(id, "Storage");
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ id: expect.any(Number), name: "Storage", questions: 0 });
    storage = added.body.id;

    const duplicate = await addDomain(id, " storage ");
    expect(duplicate.status).toBe(422);
    expect(fieldsOf(duplicate)).toEqual(["name"]);

    const renamed = await send(domainRoute.PATCH, "PATCH", `/api/v1/certifications/${id}/domains/${storage}`, { id, domain_id: storage }, { body: { name: "Object storage" } });
    expect(renamed.body).toEqual({ id: storage, name: "Object storage", questions: 0 });
    const read = await getCertification(id);
    expect(read.body.domains.map((d: { name: string }) => d.name)).toEqual(["Compute", "Object storage"]);
  });

  it("adds a single and a multiple-response question (201), and refuses a bad one naming its fields", async () => {
    const one = await addQuestion(id, compute, single);
    expect(one.status, JSON.stringify(one.body)).toBe(201);
    expect(one.body).toEqual({ id: expect.any(Number), domain_id: compute, type: "single", ...single });
    singleId = one.body.id;

    const two = await addQuestion(id, compute, multiple);
    expect(two.status).toBe(201);
    expect(two.body).toMatchObject({ type: "multiple", correct: [0, 2] });
    multipleId = two.body.id;

    const bad = await addQuestion(id, compute, { prompt: "Q", options: ["a", "A", "b"], correct: 5 });
    expect(bad.status).toBe(422);
    expect(fieldsOf(bad).sort()).toEqual(["correct", "options.1"]);

    // A domain of another certification through this one's path is not found.
    const elsewhere = await createCertification({ name: "Elsewhere", vendor: "Acme", domains: ["X"] });
    expect((await addQuestion(id, elsewhere.body.domains[0].id, single)).status).toBe(404);
  });

  it("lists the questions in pages, by domain; a catalog certification or another workspace's is 404", async () => {
    for (let n = 0; n < 3; n++) expect((await addQuestion(id, storage, { prompt: `Bucket ${n}?`, options: ["yes", "no"], correct: 0 })).status).toBe(201);

    const all = await listQuestions(id);
    expect(all.status).toBe(200);
    expect(all.body.pagination).toMatchObject({ page: 1, total: 5 });
    expect(all.body.data.map((q: { prompt: string }) => q.prompt)).toEqual([single.prompt, multiple.prompt, "Bucket 0?", "Bucket 1?", "Bucket 2?"]);

    const second = await listQuestions(id, { page: 2, per_page: 2 });
    expect(second.body).toMatchObject({ pagination: { page: 2, per_page: 2, total: 5 } });
    expect(second.body.data.map((q: { prompt: string }) => q.prompt)).toEqual(["Bucket 0?", "Bucket 1?"]);

    const storageOnly = await listQuestions(id, { domain_id: storage });
    expect(storageOnly.body.pagination.total).toBe(3);
    expect(storageOnly.body.data.every((q: { domain_id: number }) => q.domain_id === storage)).toBe(true);

    expect((await listQuestions(id, { per_page: 101 })).status).toBe(422);
    expect((await listQuestions(catalogId)).status).toBe(404);
    expect((await listQuestions(id, {}, other.secret)).status).toBe(404);
    // A domain that is not this certification's.
    const [catalogDomain] = await database.db.select({ id: domains.id }).from(domains).where(eq(domains.certificationId, catalogId)).limit(1);
    expect((await listQuestions(id, { domain_id: catalogDomain.id })).status).toBe(404);
  });

  it("PATCHes a question partially: only the prompt; type and correct together", async () => {
    const prompt = await patchQuestion(id, singleId, { prompt: "Which service runs containers today?" });
    expect(prompt.status, JSON.stringify(prompt.body)).toBe(200);
    expect(prompt.body).toEqual({ ...single, id: singleId, domain_id: compute, type: "single", prompt: "Which service runs containers today?" });

    const switched = await patchQuestion(id, singleId, { type: "multiple", correct: [2, 1] });
    expect(switched.body).toMatchObject({ type: "multiple", correct: [1, 2], options: single.options, explanation: single.explanation });
    expect(await storedQuestion(singleId)).toMatchObject({ type: "multiple", correctIndexes: [1, 2], correctIndex: 1 });

    const back = await patchQuestion(id, singleId, { type: "single", correct: 2 });
    expect(back.body).toMatchObject({ type: "single", correct: 2 });
  });

  it("refuses a PATCH whose merged question breaks the rules, naming the field, and changes nothing", async () => {
    const before = await storedQuestion(multipleId);
    for (const [body, field] of [
      [{ correct: 1 }, "correct"], // a multiple question's answer must stay a list
      [{ options: ["eu-1", "blue"] }, "correct"], // the stored set [0, 2] no longer fits two options
      [{ options: ["x", "X", "y", "z"] }, "options.1"],
      [{ prompt: "  " }, "prompt"],
      [{ type: "several" }, "type"],
      // null is no way to keep or clear a field: it is refused, not ignored.
      [{ explanation: null }, "explanation"],
      [{ prompt: null, options: ["a", "b"] }, "prompt"],
    ] as const) {
      const refused = await patchQuestion(id, multipleId, body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(fieldsOf(refused), JSON.stringify(body)).toContain(field);
    }
    const empty = await patchQuestion(id, multipleId, {});
    expect(empty.status).toBe(422);
    expect(await storedQuestion(multipleId)).toEqual(before);
  });

  it("moves a question to another domain with domain_id; another certification's domain is a 422 on domain_id", async () => {
    const moved = await patchQuestion(id, multipleId, { domain_id: storage });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ domain_id: storage, type: "multiple", correct: [0, 2] });
    expect((await storedQuestion(multipleId)).domainId).toBe(storage);

    const foreign = await createCertification({ name: "Foreign", vendor: "Acme", domains: ["F"] });
    const refused = await patchQuestion(id, multipleId, { domain_id: foreign.body.domains[0].id });
    expect(refused.status).toBe(422);
    expect(fieldsOf(refused)).toEqual(["domain_id"]);
    expect((await storedQuestion(multipleId)).domainId).toBe(storage);

    // Another workspace cannot edit it at all.
    expect((await patchQuestion(id, multipleId, { prompt: "Mine?" }, other.secret)).status).toBe(404);
  });

  it("deletes a question (204); a second delete is 404", async () => {
    expect((await deleteQuestion(id, multipleId)).status).toBe(204);
    expect(await storedQuestion(multipleId)).toBeUndefined();
    expect((await deleteQuestion(id, multipleId)).status).toBe(404);
    expect((await listQuestions(id)).body.pagination.total).toBe(4);
  });

  it("PATCHes the certification partially; {} is a 422", async () => {
    const patched = await patchCertification(id, { description: "For operators." });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: "Acme Cloud", vendor: "Acme", code: "AC-100", description: "For operators." });
    const renamed = await patchCertification(id, { name: "Acme Cloud Pro" });
    expect(renamed.body).toMatchObject({ name: "Acme Cloud Pro", description: "For operators." });

    const empty = await patchCertification(id, {});
    expect(empty.status).toBe(422);
    expect(empty.body.error.message + JSON.stringify(empty.body.error.fields)).toMatch(/at least one/i);
    expect((await patchCertification(id, { name: "" })).status).toBe(422);
    expect((await patchCertification(catalogId, { name: "Mine" })).status).toBe(404);
    expect((await patchCertification(id, { name: "Hijacked" }, other.secret)).status).toBe(404);
    expect((await getCertification(id)).body.name).toBe("Acme Cloud Pro");
  });
});

describe("scopes", () => {
  it("a cert:read key reads (200) and is refused every write (403)", async () => {
    const created = await createCertification({ name: "Scoped", vendor: "Acme", domains: ["D"] }, reader.secret);
    expect(created.status).toBe(403);

    // Its own workspace's certification, made by a full key of the same workspace.
    const full = await createTrainer(database.db);
    const mine = await call(certificationsRoute.POST, "/api/v1/certifications", { method: "POST", key: full.secret, body: { name: "Scoped", vendor: "Acme", domains: ["D"] } });
    const id: number = mine.body.id;
    const domainId: number = mine.body.domains[0].id;
    const question = await addQuestion(id, domainId, single, full.secret);
    const questionId: number = question.body.id;
    const readOnly = await createApiKeyFor(full, ["cert:read"]);

    expect((await getCertification(id, readOnly)).status).toBe(200);
    expect((await listQuestions(id, {}, readOnly)).status).toBe(200);
    for (const attempt of [
      () => patchCertification(id, { name: "No" }, readOnly),
      () => deleteCertification(id, readOnly),
      () => addDomain(id, "More", readOnly),
      () => send(domainRoute.PATCH, "PATCH", "/", { id, domain_id: domainId }, { body: { name: "No" } }, readOnly),
      () => addQuestion(id, domainId, single, readOnly),
      () => patchQuestion(id, questionId, { prompt: "No?" }, readOnly),
      () => deleteQuestion(id, questionId, readOnly),
    ]) {
      const refused = await attempt();
      expect(refused.status).toBe(403);
    }
    expect((await getCertification(id, full.secret)).body).toMatchObject({ name: "Scoped", questions: 1 });
  });
});

/** Another key of `who`'s workspace, with these scopes only. */
async function createApiKeyFor(who: Trainer, scopes: ("cert:read" | "cert:write")[]): Promise<string> {
  return (await createApiKey(database.db, who.workspaceId, { name: "read only", scopes })).secret;
}

describe("DELETE /api/v1/certifications/{id}", () => {
  it("removes an unused certification with its domains and questions (204), then 404 everywhere", async () => {
    const created = await createCertification({ name: "Short-lived", vendor: "Acme", domains: ["A", "B"] });
    const id: number = created.body.id;
    const domainIds: number[] = created.body.domains.map((d: { id: number }) => d.id);
    await addQuestion(id, domainIds[0], single);
    await addQuestion(id, domainIds[1], multiple);

    expect((await deleteCertification(id, other.secret)).status).toBe(404);
    expect((await deleteCertification(catalogId)).status).toBe(404);
    const deleted = await deleteCertification(id);
    expect(deleted.status).toBe(204);

    expect(await database.db.select().from(certifications).where(eq(certifications.id, id))).toEqual([]);
    expect(await database.db.select().from(domains).where(eq(domains.certificationId, id))).toEqual([]);
    expect(await database.db.select().from(questions).where(inArray(questions.domainId, domainIds))).toEqual([]);
    expect((await getCertification(id)).status).toBe(404);
    expect((await deleteCertification(id)).status).toBe(404);
  });

  it("retires one a test uses: 404 on GET, the list and every write, refused for new tests, while the test and its recipient's page still work", async () => {
    const created = await createCertification({ name: "Retiring", vendor: "Acme", domains: ["Only"] });
    const id: number = created.body.id;
    const domainId: number = created.body.domains[0].id;
    const question = await addQuestion(id, domainId, single);
    await addQuestion(id, domainId, { ...single, prompt: "Second?" });

    const test = await call(testsRoute.POST, "/api/v1/tests", {
      method: "POST",
      key: trainer.secret,
      body: { certification_id: id, domains: [domainId], questions: 2, recipients: [{ email: "retired@example.com", name: "R" }], send_email: false },
    });
    expect(test.status, JSON.stringify(test.body)).toBe(201);
    const code: string = test.body.code;

    expect((await deleteCertification(id)).status).toBe(204);
    const [row] = await database.db.select().from(certifications).where(eq(certifications.id, id));
    expect(row.deletedAt).toBeInstanceOf(Date);
    expect((await database.db.select().from(questions).where(eq(questions.domainId, domainId))).length).toBe(2);

    expect((await getCertification(id)).status).toBe(404);
    const listed = await call(certificationsRoute.GET, "/api/v1/certifications", { key: trainer.secret, query: { per_page: 100 } });
    expect(listed.body.data.map((c: { id: number }) => c.id)).not.toContain(id);
    for (const attempt of [
      () => patchCertification(id, { name: "Back" }),
      () => deleteCertification(id),
      () => addDomain(id, "More"),
      () => send(domainRoute.PATCH, "PATCH", "/", { id, domain_id: domainId }, { body: { name: "Renamed" } }),
      () => addQuestion(id, domainId, single),
      () => patchQuestion(id, question.body.id, { prompt: "Changed?" }),
      () => deleteQuestion(id, question.body.id),
      () => listQuestions(id),
    ]) {
      expect((await attempt()).status).toBe(404);
    }

    const refused = await call(testsRoute.POST, "/api/v1/tests", {
      method: "POST",
      key: trainer.secret,
      body: { certification_id: id, domains: [domainId], questions: 1, recipients: [{ email: "late@example.com" }], send_email: false },
    });
    expect(refused.status).toBe(422);
    expect(fieldsOf(refused)).toContain("certification_id");

    const newClass = await call(classesRoute.POST, "/api/v1/classes", { method: "POST", key: trainer.secret, body: { name: "Late class", certification_id: id, emails: [] } });
    expect(newClass.status).toBe(422);
    expect(fieldsOf(newClass)).toContain("certification_id");

    const read = await call(testRoute.GET, `/api/v1/tests/${code}`, { key: trainer.secret, params: { code } });
    expect(read.status).toBe(200);
    expect(read.body.recipients).toHaveLength(1);
    // The recipient opens, answers and submits it; the result is read back.
    const token = tokenOf(test.body.recipients[0].link);
    const page = await startAndOpen(database.db, token);
    expect(page.questions.map((q) => q.prompt).sort()).toEqual(["Second?", single.prompt].sort());
    await answerAll(database.db, token);
    await submitTest(database.db, token);
    const after = await call(testRoute.GET, `/api/v1/tests/${code}`, { key: trainer.secret, params: { code } });
    expect(after.body).toMatchObject({ completed: 1 });
    expect(after.body.recipients[0].status).toBe("completed");
    expect((await call(analysisRoute.GET, `/api/v1/tests/${code}/analysis`, { key: trainer.secret, params: { code } })).status).toBe(200);
  });
});

describe("concurrent domain adds", () => {
  it("twenty POST …/domains of one name at once: exactly one 201, the others 422, one row", async () => {
    const created = await createCertification({ name: "Racing", vendor: "Acme", domains: [] });
    const id: number = created.body.id;
    const results = await Promise.all(Array.from({ length: 20 }, () => addDomain(id, "Networking")));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(19);
    for (const refused of results.filter((r) => r.status === 422)) expect(fieldsOf(refused)).toEqual(["name"]);
    const [{ n }] = await database.db.select({ n: sql<number>`count(*)::int` }).from(domains).where(eq(domains.certificationId, id));
    expect(n).toBe(1);
  });
});

describe("a delete racing edits", () => {
  it("adds and moves of questions at the moment the certification is deleted: 2xx or 404/422, never a 5xx or a deadlock", async () => {
    // A key of its own: these rounds would eat the shared key's rate limit.
    const racer = await createTrainer(database.db);
    for (let round = 0; round < 10; round++) {
      const created = await createCertification({ name: `Race ${round}`, vendor: "Acme", domains: ["From", "To"] }, racer.secret);
      const id: number = created.body.id;
      const [from, to] = created.body.domains.map((d: { id: number }) => d.id);
      const question = await addQuestion(id, from, single, racer.secret);
      const [added, moved, deleted] = await Promise.all([
        addQuestion(id, from, { ...single, prompt: "Late?" }, racer.secret),
        patchQuestion(id, question.body.id, { domain_id: to }, racer.secret),
        deleteCertification(id, racer.secret),
      ]);
      expect(deleted.status).toBe(204);
      expect([201, 404], JSON.stringify(added.body)).toContain(added.status);
      expect([200, 404, 422], JSON.stringify(moved.body)).toContain(moved.status);
      expect(await database.db.select().from(domains).where(eq(domains.certificationId, id))).toEqual([]);
    }
  });

  it("a test made at the moment the certification is deleted: made (then it is retired) or a 422 on certification_id, never a 5xx", async () => {
    const racer = await createTrainer(database.db);
    for (let round = 0; round < 8; round++) {
      const created = await createCertification({ name: `Race test ${round}`, vendor: "Acme", domains: ["D"] }, racer.secret);
      const id: number = created.body.id;
      const domainId: number = created.body.domains[0].id;
      await addQuestion(id, domainId, single, racer.secret);
      const body = { certification_id: id, domains: [domainId], questions: 1, recipients: [{ email: `race${round}@example.com` }], send_email: false };
      const [made, deleted] = await Promise.all([call(testsRoute.POST, "/api/v1/tests", { method: "POST", key: racer.secret, body }), deleteCertification(id, racer.secret)]);
      expect(deleted.status).toBe(204);
      expect([201, 422], JSON.stringify(made.body)).toContain(made.status);
      // Gone before the request read it: its certification, or (read a moment earlier) its domain.
      if (made.status === 422) expect(["certification_id", "domains.0"]).toContain(made.body.error.fields[0].field);
      const [row] = await database.db.select({ deletedAt: certifications.deletedAt }).from(certifications).where(eq(certifications.id, id));
      // Made first: the delete found it used and retired it. Deleted first: it is gone and no test names it.
      if (made.status === 201) expect(row?.deletedAt).toBeInstanceOf(Date);
      else expect(row).toBeUndefined();
    }
  });
});

describe("edges found from outside", () => {
  it("a domain_id past a 32-bit id in a question's PATCH is a 422 naming domain_id, and the question stays", async () => {
    const created = await createCertification({ name: "Big ids", vendor: "Acme", domains: ["D"] });
    const question = await addQuestion(created.body.id, created.body.domains[0].id, single);
    for (const domainId of [2147483648, 4294967296, 9007199254740991]) {
      const refused = await patchQuestion(created.body.id, question.body.id, { domain_id: domainId });
      expect(refused.status, String(domainId)).toBe(422);
      expect(fieldsOf(refused)).toEqual(["domain_id"]);
    }
    expect((await storedQuestion(question.body.id))?.domainId).toBe(created.body.domains[0].id);
  });

  it("stores line breaks as LF whatever the client sends (CRLF, CR), so every export reads back the same", async () => {
    const created = await createCertification({ name: "Line ends", vendor: "Acme", domains: ["D"] });
    const question = await addQuestion(created.body.id, created.body.domains[0].id, { prompt: "One\r\ntwo\rthree", options: ["x\r\ny", "z"], correct: 0, explanation: "Why\r\nso" });
    expect(question.status).toBe(201);
    expect(question.body).toMatchObject({ prompt: "One\ntwo\nthree", options: ["x\ny", "z"], explanation: "Why\nso" });
  });
});
