import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { emailMessages, recipients, scheduledSteps, testQuestions, tests } from "@/db/schema";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { sendReminders, sendResultEmail } from "@/lib/certification/tests/follow-up";
import { submitTest } from "@/lib/certification/taking/taking";
import { setPlan } from "@/lib/platform/workspaces";
import * as testsRoute from "@/app/api/v1/tests/route";
import * as recipientsRoute from "@/app/api/v1/tests/[code]/recipients/route";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { catalogCertification, createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { answerAll, startAndOpen, tokenOf } from "../../helpers/taking";
import { recipientByToken } from "../../helpers/tokens";
import { sleep, waitUntil } from "../../helpers/delivery";
import { stepRegistry } from "@/lib/registry/steps";

/**
 * The e-mails that follow a test, run as scheduled steps by the embedded worker: the one
 * reminder (reminder_after_hours; to those not completed, never after closes_at, exactly
 * once) and the result (send_result; with the correct answers only as show_answers allows).
 */

let database: TestDatabase;
let trainer: Trainer;
let certificationId: number;
let domainIds: number[];
const workers: EmbeddedWorker[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  await setPlan(database.db, trainer.workspaceId, "pro");
  ({ certificationId, domainIds } = await catalogCertification(database.db));
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});
afterAll(() => database.drop());

async function startWorker() {
  const worker = new EmbeddedWorker(database, { steps: stepRegistry, pollMs: 100 });
  workers.push(worker);
  await worker.start();
}

let counter = 0;
async function newTest(settings: Record<string, unknown>, people: { email?: string; name?: string }[] = [{}]) {
  const made = await call(testsRoute.POST, "/api/v1/tests", {
    method: "POST",
    key: trainer.secret,
    body: {
      certification_id: certificationId,
      domains: domainIds.slice(0, 2),
      questions: 2,
      recipients: people.map((p) => ({ email: p.email ?? `person${++counter}@example.com`, name: p.name ?? "" })),
      send_email: true,
      ...settings,
    },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const [row] = await database.db.select().from(tests).where(eq(tests.code, made.body.code));
  return { code: made.body.code as string, testId: row.id, people: made.body.recipients as { id: number; email: string; link: string }[] };
}

const mailsOf = (recipientIds: number[], kind: string) =>
  database.db
    .select()
    .from(emailMessages)
    .where(and(inArray(emailMessages.recipientId, recipientIds), eq(emailMessages.kind, kind)));
const stepsOf = (kind: string, key: "testId" | "recipientId", id: number) =>
  database.db.select().from(scheduledSteps).where(and(eq(scheduledSteps.kind, kind), sql`(${scheduledSteps.payload}->>${key})::int = ${id}`));

/** As if `hours` (and a minute) had passed since the test was e-mailed: its recipients' sent_at and its reminder steps move back. */
async function hoursPass(testId: number, hours: number) {
  await database.db.execute(sql`update recipients set sent_at = sent_at - make_interval(hours => ${hours}, mins => 1) where test_id = ${testId}`);
  await database.db.execute(sql`update scheduled_steps set run_at = now() where kind = 'test.reminder' and (payload->>'testId')::int = ${testId}`);
}

describe("the reminder", () => {
  it("goes once, after that many hours, to the e-mailed recipients who have not completed", async () => {
    const { code, testId, people } = await newTest({ reminder_after_hours: 24, name: "Ports and protocols" }, [
      { name: "Done" },
      { name: "Halfway" },
      { name: "Untouched" },
    ]);
    const [done, halfway, untouched] = people;
    // One not e-mailed at all (its link shared by the trainer): never reminded.
    const quiet = await call(recipientsRoute.POST, `/api/v1/tests/${code}/recipients`, {
      method: "POST",
      key: trainer.secret,
      params: { code },
      body: { recipients: [{ email: `quiet${++counter}@example.com` }], send_email: false },
    });
    expect(quiet.status).toBe(201);
    await answerAll(database.db, tokenOf(done.link));
    await submitTest(database.db, tokenOf(done.link));
    await startAndOpen(database.db, tokenOf(halfway.link));

    // Not yet due: the step waits its hours.
    const [step] = await stepsOf("test.reminder", "testId", testId);
    expect(step.runAt.getTime()).toBeGreaterThan(Date.now() + 23.9 * 3_600_000);
    await startWorker();
    await sleep(300);
    expect(await mailsOf([done.id, halfway.id, untouched.id, quiet.body.data[0].id], "test_reminder")).toEqual([]);

    await hoursPass(testId, 24);
    await waitUntil("the reminder step to run", async () => (await stepsOf("test.reminder", "testId", testId)).every((s) => s.status === "done"));
    const reminders = await mailsOf([done.id, halfway.id, untouched.id, quiet.body.data[0].id], "test_reminder");
    expect(reminders.map((m) => m.recipientId).sort()).toEqual([halfway.id, untouched.id].sort());
    const byRecipient = new Map(reminders.map((m) => [m.recipientId, m]));
    expect(byRecipient.get(halfway.id)).toMatchObject({ subject: "Reminder: Ports and protocols", to: halfway.email });
    expect(byRecipient.get(halfway.id)!.text).toMatch(/started the practice test .* but have not submitted it yet/);
    expect(byRecipient.get(untouched.id)!.text).toMatch(/that you have not taken yet/);
    expect(byRecipient.get(untouched.id)!.text).toContain(untouched.link);
    const [halfwayRow] = await database.db.select().from(recipients).where(eq(recipients.id, halfway.id));
    expect(halfwayRow.remindedAt).not.toBeNull();

    // Exactly once: the step again (a retry, another batch's step) sends nothing more.
    expect(await sendReminders(database.db, testId)).toBe(0);
    await Promise.all([sendReminders(database.db, testId), sendReminders(database.db, testId)]);
    expect(await mailsOf([done.id, halfway.id, untouched.id], "test_reminder")).toHaveLength(2);
  });

  it("is never sent from closes_at on", async () => {
    const { testId, people } = await newTest({ reminder_after_hours: 1, closes_at: new Date(Date.now() + 2 * 3_600_000).toISOString() });
    await hoursPass(testId, 1);
    // The window closed meanwhile (moved, as the hours were).
    await database.db.update(tests).set({ closesAt: new Date(Date.now() - 1_000) }).where(eq(tests.id, testId));
    await startWorker();
    await waitUntil("the reminder step to run", async () => (await stepsOf("test.reminder", "testId", testId)).every((s) => s.status === "done"));
    expect(await mailsOf([people[0].id], "test_reminder")).toEqual([]);
  });
});

describe("the result by e-mail (send_result)", () => {
  /** Completes one recipient with the first question right and the second wrong; returns the questions in their order. */
  async function completeHalf(link: string) {
    const token = tokenOf(link);
    await answerAll(database.db, token, 1);
    await submitTest(database.db, token);
    const row = await recipientByToken(database.db, token);
    const questions = await database.db.select().from(testQuestions).where(inArray(testQuestions.id, row.questionOrder));
    return row.questionOrder.map((id) => questions.find((q) => q.id === id)!);
  }

  it("e-mails the result once on completion, with the answers as show_answers allows", async () => {
    await startWorker();
    const shown = await newTest({ send_result: true, pass_mark: 50, name: "Shown quiz" }, [{ name: "Ada" }]);
    const later = await newTest({ send_result: true, show_answers: "after_close", closes_at: new Date(Date.UTC(2099, 5, 1, 12)).toISOString(), name: "Later quiz" });
    const never = await newTest({ send_result: true, show_answers: "never", pass_mark: 80, name: "Never quiz" });
    const off = await newTest({ send_result: false });
    const questions = new Map<string, Awaited<ReturnType<typeof completeHalf>>>();
    for (const test of [shown, later, never, off]) questions.set(test.code, await completeHalf(test.people[0].link));

    const ids = [shown, later, never, off].map((t) => t.people[0].id);
    await waitUntil("the three result e-mails to be queued", async () => ((await mailsOf(ids, "test_result")).length === 3 ? true : undefined));
    const mails = new Map((await mailsOf(ids, "test_result")).map((m) => [m.recipientId, m]));
    expect(mails.has(off.people[0].id)).toBe(false);
    expect(await stepsOf("test.result_email", "recipientId", off.people[0].id)).toEqual([]);

    const shownMail = mails.get(shown.people[0].id)!;
    expect(shownMail).toMatchObject({ subject: "Your result: Shown quiz", to: shown.people[0].email });
    expect(shownMail.text).toContain("Hello Ada,");
    expect(shownMail.text).toContain("50% — 1 of 2 questions correct — Passed: the pass mark is 50%");
    const [right, wrong] = questions.get(shown.code)!;
    expect(shownMail.html).toContain("Answers and explanations");
    expect(shownMail.text).toContain(`Correct answer: ${wrong.options[wrong.correctIndex]}`);
    expect(shownMail.text).not.toContain(`Correct answer: ${right.options[right.correctIndex]}`); // right: no need to say it twice
    if (wrong.explanation) expect(shownMail.text).toContain(wrong.explanation);
    expect(shownMail.text).toContain(shown.people[0].link);

    const laterMail = mails.get(later.people[0].id)!;
    expect(laterMail.text).toContain("1 of 2 questions correct");
    expect(laterMail.text).not.toMatch(/Passed|Not passed|pass mark/);
    expect(laterMail.html).not.toContain("Answers and explanations");
    expect(laterMail.text).not.toContain("Correct answer:");
    expect(laterMail.text).toContain("can be seen at your link from 1 Jun 2099, 12:00 UTC");
    for (const question of questions.get(later.code)!) if (question.explanation) expect(laterMail.text).not.toContain(question.explanation);

    const neverMail = mails.get(never.people[0].id)!;
    expect(neverMail.text).toContain("50% — 1 of 2 questions correct — Not passed: the pass mark is 80%");
    expect(neverMail.html).not.toContain("Answers and explanations");
    expect(neverMail.text).not.toContain("Correct answer:");
    expect(neverMail.text).toContain("The correct answers of this test are not shown.");

    // Once: the step again, or two at once, sends nothing more; a second submit schedules nothing.
    expect(await sendResultEmail(database.db, shown.people[0].id)).toBe(false);
    await submitTest(database.db, tokenOf(shown.people[0].link));
    expect(await stepsOf("test.result_email", "recipientId", shown.people[0].id)).toHaveLength(1);
    expect(await mailsOf(ids, "test_result")).toHaveLength(3);
  });
});
