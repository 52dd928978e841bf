import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answers, emailMessages, events, recipients, testQuestions, tests, webhookDeliveries } from "@/db/schema";
import { createCertification } from "@/lib/certification/catalog/catalog";
import { createCertificationInput } from "@/lib/certification/catalog/schemas";
import { openTest, saveAnswer, submitTest } from "@/lib/certification/taking/taking";
import { createTestResultWebhook, createWebhook } from "@/lib/platform/webhooks/endpoints";
import { setPlan } from "@/lib/platform/workspaces";
import * as testsRoute from "@/app/api/v1/tests/route";
import * as testRoute from "@/app/api/v1/tests/[code]/route";
import * as recipientsRoute from "@/app/api/v1/tests/[code]/recipients/route";
import * as resendRoute from "@/app/api/v1/tests/[code]/recipients/[id]/resend/route";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { catalogCertification, createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { answerAll, answerBodies, someAnswer, startAndOpen } from "../../helpers/taking";

let database: TestDatabase;
let trainer: Trainer;
let certificationId: number;
let domainIds: number[];

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  ({ certificationId, domainIds } = await catalogCertification(database.db));
});
afterAll(() => database.drop());

const create = (body: unknown, key = trainer.secret) => call(testsRoute.POST, "/api/v1/tests", { method: "POST", key, body });
const tableCount = async (table: typeof tests | typeof recipients | typeof emailMessages | typeof testQuestions) =>
  (await database.db.select({ n: sql<number>`count(*)::int` }).from(table))[0].n;

describe("POST /api/v1/tests (happy)", () => {
  it("splits questions equally, the remainder one each to the first domains, and e-mails each recipient", async () => {
    const emailsBefore = await tableCount(emailMessages);
    const result = await create({
      certification_id: certificationId,
      domains: domainIds.slice(0, 3),
      questions: 8,
      recipients: [
        { email: "Ada@Example.com", name: "Ada" },
        { email: "bob@example.com" },
      ],
    });
    expect(result.status).toBe(201);
    expect(result.body.code).toMatch(/^[2-9A-Z]{8}$/);
    expect(result.body.questions).toBe(8);
    expect(result.body.domains.map((d: { questions: number }) => d.questions)).toEqual([3, 3, 2]);
    expect(result.body.recipients).toHaveLength(2);
    expect(result.body.recipients[0]).toMatchObject({ email: "ada@example.com", name: "Ada", status: "sent" });
    expect(result.body.recipients[1]).toMatchObject({ email: "bob@example.com", name: "" });
    for (const recipient of result.body.recipients) expect(recipient.link).toMatch(/\/t\/[A-Za-z0-9_-]{32}$/);
    expect((await tableCount(emailMessages)) - emailsBefore).toBe(2);
  });

  it("takes an explicit count per domain", async () => {
    const result = await create({
      certification_id: certificationId,
      questions_per_domain: [
        { domain_id: domainIds[1], questions: 1 },
        { domain_id: domainIds[0], questions: 4 },
      ],
      recipients: [{ email: "carol@example.com", name: "Carol" }],
      send_email: false,
    });
    expect(result.status).toBe(201);
    expect(result.body.domains).toEqual([
      { id: domainIds[1], name: expect.any(String), questions: 1 },
      { id: domainIds[0], name: expect.any(String), questions: 4 },
    ]);
  });

  it("sends no e-mail with send_email: false but still returns the links", async () => {
    const before = await tableCount(emailMessages);
    const result = await create({ certification_id: certificationId, domains: [domainIds[0]], questions: 2, recipients: [{ email: "d@example.com" }], send_email: false });
    expect(result.status).toBe(201);
    expect(result.body.recipients[0].link).toContain("/t/");
    expect(await tableCount(emailMessages)).toBe(before);
  });

  it("freezes the drawn questions: editing the bank later does not change a sent test", async () => {
    const own = await createCertification(
      database.db,
      trainer.workspaceId,
      createCertificationInput.parse({ name: "Frozen", vendor: "Acme", domains: [{ name: "Only", questions: [{ prompt: "Original?", options: ["yes", "no"], correct: 0 }] }] }),
    );
    const made = await create({ certification_id: own.id, domains: [own.domains[0].id], questions: 1, recipients: [{ email: "f@example.com" }], send_email: false });
    await database.db.execute(sql`update questions set prompt = 'Edited!' where domain_id = ${own.domains[0].id}`);
    const token = made.body.recipients[0].link.split("/t/")[1];
    const view = await startAndOpen(database.db, token);
    expect(view.questions[0].prompt).toBe("Original?");
  });
});

describe("POST /api/v1/tests (errors change nothing)", () => {
  async function expectRejected(body: unknown, status: number, fields: string[] = []) {
    const before = await Promise.all([tableCount(tests), tableCount(recipients), tableCount(emailMessages)]);
    const result = await create(body);
    expect(result.status, JSON.stringify(result.body)).toBe(status);
    if (fields.length) expect(result.body.error.fields.map((f: { field: string }) => f.field).sort()).toEqual([...fields].sort());
    expect(await Promise.all([tableCount(tests), tableCount(recipients), tableCount(emailMessages)])).toEqual(before);
    return result;
  }

  it("lists every wrong field at once", async () => {
    await expectRejected(
      {
        certification_id: certificationId,
        domains: [domainIds[0], 999999],
        questions: 2,
        recipients: [{ email: "not-an-address" }, { email: "x@example.com" }, { email: "X@example.com" }],
        class_id: 1,
      },
      422,
      ["recipients.0.email"],
    );
    const semantic = await expectRejected(
      { certification_id: certificationId, domains: [domainIds[0], 999999], questions: 2, recipients: [{ email: "x@example.com" }, { email: "X@example.com" }], class_id: 1 },
      422,
    );
    const named = semantic.body.error.fields.map((f: { field: string }) => f.field);
    expect(named).toEqual(expect.arrayContaining(["recipients", "recipients.1.email", "domains.1"]));
  });

  it("refuses a domain without enough questions", async () => {
    const result = await expectRejected({ certification_id: certificationId, questions_per_domain: [{ domain_id: domainIds[0], questions: 50 }], recipients: [{ email: "a@example.com" }] }, 422);
    expect(result.body.error.fields[0]).toMatchObject({ field: "questions_per_domain.0", message: expect.stringContaining("has 14 questions") /* 12 single-answer + 2 multiple-response catalog items */ });
  });

  it("refuses neither recipients nor class_id, and both questions and questions_per_domain", async () => {
    await expectRejected({ certification_id: certificationId, domains: [domainIds[0]], questions: 1 }, 422, ["recipients"]);
    await expectRejected(
      { certification_id: certificationId, domains: [domainIds[0]], questions: 1, questions_per_domain: [{ domain_id: domainIds[0], questions: 1 }], recipients: [{ email: "a@example.com" }] },
      422,
      ["questions"],
    );
  });

  it("refuses another workspace's certification as if it did not exist", async () => {
    const stranger = await createTrainer(database.db);
    const theirs = await createCertification(
      database.db,
      stranger.workspaceId,
      createCertificationInput.parse({ name: "Theirs", vendor: "X", domains: [{ name: "D", questions: [{ prompt: "q", options: ["a", "b"], correct: 0 }] }] }),
    );
    await expectRejected({ certification_id: theirs.id, domains: [theirs.domains[0].id], questions: 1, recipients: [{ email: "a@example.com" }] }, 422, ["certification_id"]);
  });

  it("answers 409 beyond the plan's seats (free: 5) and writes nothing", async () => {
    const people = Array.from({ length: 6 }, (_, i) => ({ email: `seat${i}@example.com` }));
    const result = await expectRejected({ certification_id: certificationId, domains: [domainIds[0]], questions: 1, recipients: people }, 409);
    expect(result.body.error.code).toBe("plan_limit_exceeded");
  });

  it("answers 400 to malformed JSON", async () => {
    await expectRejected("{", 400);
  });
});

describe("reading tests", () => {
  it("lists the workspace's tests newest first with recipient and completed counts", async () => {
    const result = await call(testsRoute.GET, "/api/v1/tests", { key: trainer.secret });
    expect(result.status).toBe(200);
    const created = result.body.data.map((t: { created_at: string }) => t.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    expect(result.body.data[0]).toMatchObject({ recipients: expect.any(Number), completed: 0, started: expect.any(Number) });
    const stranger = await createTrainer(database.db);
    expect((await call(testsRoute.GET, "/api/v1/tests", { key: stranger.secret })).body.data).toEqual([]);
  });
});

describe("the recipient's journey and test.completed", () => {
  it("sent until Start, answers saved one by one, completed on submit with results per domain, one webhook", async () => {
    await setPlan(database.db, trainer.workspaceId, "pro");
    const testResults = await createTestResultWebhook(database.db, trainer.workspaceId, { url: "https://receiver.example.com/hook" });
    // A competition endpoint taking every competition event: test.completed is not one of them.
    const competition = await createWebhook(database.db, trainer.workspaceId, { url: "https://receiver.example.com/competition", events: [] }, "api");
    const made = await create({ certification_id: certificationId, domains: domainIds.slice(0, 2), questions: 4, recipients: [{ email: "eve@example.com", name: "Eve" }], send_email: false });
    const code = made.body.code;
    const token = made.body.recipients[0].link.split("/t/")[1];

    // Opening the link shows the start page and changes nothing; Start starts.
    const before = await openTest(database.db, token);
    expect(before).toMatchObject({ status: "sent", questions: [] });
    expect((await call(testRoute.GET, `/api/v1/tests/${code}`, { key: trainer.secret, params: { code } })).body.recipients[0].status).toBe("sent");
    await expect(saveAnswer(database.db, token, { question_id: 1, option: 0 })).rejects.toMatchObject({ code: "conflict" });

    // Answer: the first two right, the others wrong.
    const opened = await answerAll(database.db, token, 2);
    expect(opened.status).toBe("started");
    expect(opened.questions).toHaveLength(4);
    const read = await call(testRoute.GET, `/api/v1/tests/${code}`, { key: trainer.secret, params: { code } });
    expect(read.body.recipients[0].status).toBe("started");
    // Changing an answer keeps one row per question.
    const first = opened.questions[0];
    await saveAnswer(database.db, token, (await answerBodies(database.db, token)).get(first.id)!.right);
    expect((await database.db.select().from(answers).where(eq(answers.recipientId, made.body.recipients[0].id))).length).toBe(4);

    const result = await submitTest(database.db, token);
    expect(result).toMatchObject({ percent: 50, correct: 2, questions: 4 });
    expect(result.domains.reduce((sum, d) => sum + d.questions, 0)).toBe(4);
    const again = await submitTest(database.db, token);
    expect(again).toEqual(result);

    const completed = await call(testRoute.GET, `/api/v1/tests/${code}`, { key: trainer.secret, params: { code } });
    expect(completed.body.recipients[0]).toMatchObject({ status: "completed", result: { percent: 50, correct: 2, questions: 4 } });
    expect(completed.body.recipients[0].result.domains[0]).toMatchObject({ id: expect.any(Number), name: expect.any(String), percent: expect.any(Number) });

    const published = await database.db.select().from(events).where(sql`${events.type} = 'test.completed' and ${events.data}->>'test' = ${code}`);
    expect(published).toHaveLength(1);
    expect(published[0].data).toMatchObject({ test: code, score: 50, correct: 2, questions: 4, recipient: { email: "eve@example.com", name: "Eve" } });
    const delivered = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, published[0].id));
    expect(delivered.map((delivery) => delivery.endpointId)).toEqual([testResults.id]);
    expect(delivered.map((delivery) => delivery.endpointId)).not.toContain(competition.id);

    await expect(saveAnswer(database.db, token, { question_id: first.id, option: 0 })).rejects.toMatchObject({ code: "conflict" });
    const resend = await call(resendRoute.POST, `/api/v1/tests/${code}/recipients/${made.body.recipients[0].id}/resend`, {
      method: "POST",
      key: trainer.secret,
      params: { code, id: String(made.body.recipients[0].id) },
    });
    expect(resend.status).toBe(409);
  });

  it("refuses to submit with unanswered questions, naming them", async () => {
    const made = await create({ certification_id: certificationId, domains: [domainIds[0]], questions: 3, recipients: [{ email: "unfinished@example.com" }], send_email: false });
    const token = made.body.recipients[0].link.split("/t/")[1];
    const view = await startAndOpen(database.db, token);
    await saveAnswer(database.db, token, someAnswer(view.questions[0]));
    await expect(submitTest(database.db, token)).rejects.toMatchObject({ code: "validation_failed", fields: [{ field: "answers.2" }, { field: "answers.3" }] });
  });

  it("two submits at once complete once and publish once", async () => {
    const made = await create({ certification_id: certificationId, domains: [domainIds[0]], questions: 1, recipients: [{ email: "twice@example.com" }], send_email: false });
    const token = made.body.recipients[0].link.split("/t/")[1];
    const view = await startAndOpen(database.db, token);
    await saveAnswer(database.db, token, someAnswer(view.questions[0]));
    await Promise.all([submitTest(database.db, token), submitTest(database.db, token)]);
    const published = await database.db.select().from(events).where(sql`${events.data}->>'test' = ${made.body.code}`);
    expect(published).toHaveLength(1);
  });

  it("treats unknown tokens as unknown", async () => {
    expect(await openTest(database.db, "nope")).toBeUndefined();
    expect(await openTest(database.db, "A".repeat(32))).toBeUndefined();
    await expect(submitTest(database.db, "A".repeat(32))).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("more recipients and resend", () => {
  it("adds recipients within the seats, refuses duplicates, resends a fresh e-mail", async () => {
    const fresh = await createTrainer(database.db);
    const made = await create({ certification_id: certificationId, domains: [domainIds[0]], questions: 1, recipients: [{ email: "one@example.com" }] }, fresh.secret);
    const code = made.body.code;
    const add = (body: unknown) => call(recipientsRoute.POST, `/api/v1/tests/${code}/recipients`, { method: "POST", key: fresh.secret, params: { code }, body });
    const added = await add({ recipients: [{ email: "two@example.com", name: "Two" }] });
    expect(added.status).toBe(201);
    expect(added.body.data[0]).toMatchObject({ email: "two@example.com", status: "sent" });
    expect((await add({ recipients: [{ email: "one@example.com" }] })).status).toBe(422);
    expect((await add({ recipients: [{ email: "a@x.com" }, { email: "b@x.com" }, { email: "c@x.com" }, { email: "d@x.com" }] })).status).toBe(409);

    const before = await tableCount(emailMessages);
    const id = String(made.body.recipients[0].id);
    const resent = await call(resendRoute.POST, `/api/v1/tests/${code}/recipients/${id}/resend`, { method: "POST", key: fresh.secret, params: { code, id } });
    expect(resent.status).toBe(202);
    expect(await tableCount(emailMessages)).toBe(before + 1);
    const missing = await call(resendRoute.POST, `/api/v1/tests/${code}/recipients/999999/resend`, { method: "POST", key: fresh.secret, params: { code, id: "999999" } });
    expect(missing.status).toBe(404);
  });
});
