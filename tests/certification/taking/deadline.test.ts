import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { rowsOf } from "@/db";
import { events, recipients, scheduledSteps } from "@/db/schema";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { createTestResultWebhook } from "@/lib/platform/webhooks/endpoints";
import { setPlan } from "@/lib/platform/workspaces";
import * as testsRoute from "@/app/api/v1/tests/route";
import * as testRoute from "@/app/api/v1/tests/[code]/route";
import * as startRoute from "@/app/api/t/[token]/start/route";
import * as answerRoute from "@/app/api/t/[token]/answers/route";
import * as submitRoute from "@/app/api/t/[token]/submit/route";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { catalogCertification, createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { receiverPool, verifyCertification } from "../../helpers/receivers";
import { answerBodies, tokenOf } from "../../helpers/taking";
import { recipientByToken } from "../../helpers/tokens";
import { sleep, waitUntil } from "../../helpers/delivery";
import { stepRegistry } from "@/lib/registry/steps";

/**
 * The deadline of an attempt (time limit or closes_at) is a row in `scheduled_steps`, not a
 * timer in a process: an attempt whose deadline passes while no executor runs — the page
 * closed, the app stopped — is submitted by the next executor to start, with the answers
 * given by then, exactly once (`completed`, one signed `test.completed`).
 */

let database: TestDatabase;
let trainer: Trainer;
let certificationId: number;
let domainIds: number[];
const receivers = receiverPool();
const workers: EmbeddedWorker[] = [];

beforeAll(async () => {
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
  vi.stubEnv("WEBHOOK_RETRY_STEP_MS", "200");
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  await setPlan(database.db, trainer.workspaceId, "pro");
  ({ certificationId, domainIds } = await catalogCertification(database.db));
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});

afterAll(async () => {
  await receivers.closeAll();
  await database?.drop();
  vi.unstubAllEnvs();
});

async function startWorker(): Promise<EmbeddedWorker> {
  const worker = new EmbeddedWorker(database, { steps: stepRegistry, pollMs: 100 });
  workers.push(worker);
  await worker.start();
  return worker;
}

/** Stops a worker as a process stopping would: it claims nothing more. */
async function stopWorker(worker: EmbeddedWorker) {
  await worker.stop();
  workers.splice(workers.indexOf(worker), 1);
}

async function newTest(settings: Record<string, unknown>) {
  const made = await call(testsRoute.POST, "/api/v1/tests", {
    method: "POST",
    key: trainer.secret,
    body: { certification_id: certificationId, domains: domainIds.slice(0, 2), questions: 4, recipients: [{ email: "late@example.com", name: "Late" }], send_email: false, ...settings },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return { code: made.body.code as string, token: tokenOf(made.body.recipients[0].link), id: made.body.recipients[0].id as number };
}

const start = (token: string) => call(startRoute.POST, `/api/t/${token}/start`, { method: "POST", params: { token } });
const answer = (token: string, body: unknown) => call(answerRoute.PUT, `/api/t/${token}/answers`, { method: "PUT", params: { token }, body });
const submit = (token: string) => call(submitRoute.POST, `/api/t/${token}/submit`, { method: "POST", params: { token } });
const readTest = (code: string) => call(testRoute.GET, `/api/v1/tests/${code}`, { key: trainer.secret, params: { code } });
const deadlineStep = async (recipientId: number) =>
  (await database.db.select().from(scheduledSteps).where(and(eq(scheduledSteps.kind, "test.deadline"), sql`(${scheduledSteps.payload}->>'recipientId')::int = ${recipientId}`)))[0];

/** Starts, then answers the first two of the four questions (the first right, the second wrong), through the routes. */
async function startAndAnswerTwo(token: string) {
  const started = await start(token);
  expect(started.status).toBe(200);
  const row = await recipientByToken(database.db, token);
  const bodies = await answerBodies(database.db, token);
  const [first, second, third] = row.questionOrder;
  expect((await answer(token, bodies.get(first)!.right)).status).toBe(200);
  expect((await answer(token, bodies.get(second)!.wrong)).status).toBe(200);
  return { started: started.body as { deadline: string }, third };
}

async function expectOneSignedCompletion(receiver: Awaited<ReturnType<typeof receivers.start>>, secret: string, code: string, expected: Record<string, unknown>) {
  const [request] = await receiver.waitForRequests(1, 15_000);
  expect(request.headers["x-webhook-event"]).toBe("test.completed");
  expect(verifyCertification(request.raw, request.headers, secret)).toBe("valid");
  const body = JSON.parse(request.raw.toString("utf8"));
  expect(body.payload).toMatchObject({ test: code, ...expected });
  await sleep(500);
  expect(receiver.requests).toHaveLength(1);
  expect(await database.db.select().from(events).where(sql`${events.type} = 'test.completed' and ${events.data}->>'test' = ${code}`)).toHaveLength(1);
}

describe("an attempt whose deadline passes while no executor runs", () => {
  it("closes_at: submitted by the next executor to start, with the answers given, once", async () => {
    const receiver = await receivers.start({ kind: "ok" }, "window-deadline");
    const hook = await createTestResultWebhook(database.db, trainer.workspaceId, { url: receiver.url });
    const first = await startWorker();
    const closesAt = new Date(Date.now() + 4_000);
    const { code, token, id } = await newTest({ closes_at: closesAt.toISOString(), time_limit_minutes: 30, pass_mark: 50 });
    const { started, third } = await startAndAnswerTwo(token);
    expect(started.deadline).toBe(closesAt.toISOString());

    // The process stops; the recipient closed the page. The window closes meanwhile.
    await stopWorker(first);
    await waitUntil(
      "closes_at to pass by the database's clock",
      async () => Date.now() > closesAt.getTime() + 50 && rowsOf<{ due: boolean }>(await database.db.execute(sql`select now() >= ${closesAt.toISOString()}::timestamptz as due`))[0].due,
    );
    expect(await deadlineStep(id)).toMatchObject({ status: "pending", attempts: 0 });
    expect((await readTest(code)).body.recipients[0].status).toBe("started");
    const late = await answer(token, { question_id: third, option: 0 });
    expect(late.status).toBe(409);
    expect(late.body.error.message).toMatch(/^Time is up/);
    expect(receiver.requests).toHaveLength(0);

    // A new process starts: its executor runs the due step.
    const restartedAt = Date.now();
    await startWorker();
    const done = await waitUntil("the new worker to submit the attempt", async () => {
      const recipient = (await readTest(code)).body.recipients[0];
      return recipient.status === "completed" ? recipient : undefined;
    });
    expect(done).toMatchObject({ completed_at: closesAt.toISOString(), result: { correct: 1, questions: 4, percent: 25, passed: false } });
    expect(await deadlineStep(id)).toMatchObject({ status: "done", attempts: 1 });
    expect((await deadlineStep(id)).completedAt!.getTime()).toBeGreaterThanOrEqual(restartedAt - 5);
    await expectOneSignedCompletion(receiver, hook.secret, code, { score: 25, correct: 1, questions: 4, passed: false, recipient: { email: "late@example.com", name: "Late" } });

    // The page's own submit afterwards answers the same result and publishes nothing more.
    expect((await submit(token)).body).toMatchObject({ correct: 1, percent: 25, passed: false });
    expect(await database.db.select().from(events).where(sql`${events.type} = 'test.completed' and ${events.data}->>'test' = ${code}`)).toHaveLength(1);
  });

  it("time limit: the minute passes while the app is stopped; the next executor submits the attempt at its deadline, once", async () => {
    const receiver = await receivers.start({ kind: "ok" }, "limit-deadline");
    const hook = await createTestResultWebhook(database.db, trainer.workspaceId, { url: receiver.url });
    const first = await startWorker();
    const { code, token, id } = await newTest({ time_limit_minutes: 1 });
    const { started, third } = await startAndAnswerTwo(token);
    const step = await deadlineStep(id);
    expect(step.runAt.toISOString()).toBe(started.deadline);
    await stopWorker(first);

    // The minute passes with no process running. Rather than wait it out, the attempt's clock
    // and its step are moved back by 61 s together (started a minute and a second ago); the
    // window test above waits for real time.
    await database.db.execute(
      sql`update recipients set started_at = started_at - interval '61 seconds', deadline_at = deadline_at - interval '61 seconds' where id = ${id}`,
    );
    await database.db.execute(sql`update scheduled_steps set run_at = run_at - interval '61 seconds' where id = ${step.id}`);
    const [moved] = await database.db.select().from(recipients).where(eq(recipients.id, id));
    expect(moved.deadlineAt!.getTime()).toBeLessThan(Date.now());
    const late = await answer(token, { question_id: third, option: 0 });
    expect(late.status).toBe(409);
    expect((await readTest(code)).body.recipients[0].status).toBe("started");

    await startWorker();
    const done = await waitUntil("the new worker to submit the attempt", async () => {
      const recipient = (await readTest(code)).body.recipients[0];
      return recipient.status === "completed" ? recipient : undefined;
    });
    expect(done).toMatchObject({ completed_at: moved.deadlineAt!.toISOString(), result: { correct: 1, questions: 4, percent: 25, passed: null } });
    expect(await deadlineStep(id)).toMatchObject({ status: "done", attempts: 1 });
    await expectOneSignedCompletion(receiver, hook.secret, code, { score: 25, correct: 1, passed: null });
  });

  it("a recipient who submitted in time is left as they are when the step comes due (one completion)", async () => {
    const { code, token, id } = await newTest({ time_limit_minutes: 5 });
    await start(token);
    const bodies = await answerBodies(database.db, token);
    const row = await recipientByToken(database.db, token);
    for (const question of row.questionOrder) expect((await answer(token, bodies.get(question)!.right)).status).toBe(200);
    const submitted = await submit(token);
    expect(submitted.body).toMatchObject({ percent: 100 });
    const [before] = await database.db.select().from(recipients).where(eq(recipients.id, id));
    await database.db.execute(sql`update scheduled_steps set run_at = now() where kind = 'test.deadline' and (payload->>'recipientId')::int = ${id}`);
    await startWorker();
    await waitUntil("the step to run", async () => (await deadlineStep(id)).status === "done");
    const [after] = await database.db.select().from(recipients).where(eq(recipients.id, id));
    expect(after.completedAt).toEqual(before.completedAt);
    expect(after.result).toEqual(before.result);
    expect(await database.db.select().from(events).where(sql`${events.type} = 'test.completed' and ${events.data}->>'test' = ${code}`)).toHaveLength(1);
  });
});
