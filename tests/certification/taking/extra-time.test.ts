import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recipients, scheduledSteps } from "@/db/schema";
import { DEADLINE_CLOCK_SLACK_MS, submitAtDeadline } from "@/lib/certification/taking/taking";
import { deadlineFor } from "@/lib/certification/tests/settings";
import { setPlan } from "@/lib/platform/workspaces";
import * as testsRoute from "@/app/api/v1/tests/route";
import * as testRoute from "@/app/api/v1/tests/[code]/route";
import * as recipientsRoute from "@/app/api/v1/tests/[code]/recipients/route";
import * as recipientRoute from "@/app/api/v1/tests/[code]/recipients/[id]/route";
import * as startRoute from "@/app/api/t/[token]/start/route";
import * as answerRoute from "@/app/api/t/[token]/answers/route";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { catalogCertification, createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { answerAll, someAnswer, startAndOpen, tokenOf } from "../../helpers/taking";
import { submitTest } from "@/lib/certification/taking/taking";

/**
 * Extra time (issue 23): a recipient's `extra_time_minutes`, given at creation or when added
 * and changed by PATCH until they complete, is added to their deadline — min(start + limit,
 * closes_at) + extra — and a change during an attempt moves the deadline and its step.
 */

let database: TestDatabase;
let trainer: Trainer;
let stranger: Trainer;
let certificationId: number;
let domainIds: number[];

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  stranger = await createTrainer(database.db);
  await setPlan(database.db, trainer.workspaceId, "pro");
  ({ certificationId, domainIds } = await catalogCertification(database.db));
});
afterAll(() => database.drop());

let counter = 0;
const email = (who: string) => `${who}-${++counter}@example.com`;
const MINUTE = 60_000;

async function newTest(settings: Record<string, unknown>, people: Record<string, unknown>[] = [{ email: email("r") }]) {
  const made = await call(testsRoute.POST, "/api/v1/tests", {
    method: "POST",
    key: trainer.secret,
    body: { certification_id: certificationId, domains: domainIds.slice(0, 1), questions: 2, recipients: people, send_email: false, ...settings },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const recipientsMade = made.body.recipients as { id: number; link: string; extra_time_minutes: number; deadline: string | null }[];
  return { code: made.body.code as string, people: recipientsMade.map((r) => ({ ...r, token: tokenOf(r.link) })) };
}

const patch = (code: string, id: number | string, body: unknown, key = trainer.secret) =>
  call(recipientRoute.PATCH, `/api/v1/tests/${code}/recipients/${id}`, { method: "PATCH", key, params: { code, id: String(id) }, body });
const start = (token: string) => call(startRoute.POST, `/api/t/${token}/start`, { method: "POST", params: { token } });
const answer = (token: string, body: unknown) => call(answerRoute.PUT, `/api/t/${token}/answers`, { method: "PUT", params: { token }, body });
const row = async (id: number) => (await database.db.select().from(recipients).where(eq(recipients.id, id)))[0];
const deadlineSteps = async (id: number) =>
  database.db
    .select()
    .from(scheduledSteps)
    .where(and(eq(scheduledSteps.kind, "test.deadline"), sql`(${scheduledSteps.payload}->>'recipientId')::int = ${id}`))
    .orderBy(scheduledSteps.runAt);
/** Moves an attempt's start (and deadline) back by `ms`, as if it had started that long ago. */
const startedAgo = (id: number, ms: number) =>
  database.db.execute(sql`update recipients set started_at = started_at - ${`${ms} milliseconds`}::interval, deadline_at = deadline_at - ${`${ms} milliseconds`}::interval where id = ${id}`);

describe("the deadline rule (deadlineFor)", () => {
  const start = new Date("2030-01-01T10:00:00Z");
  const at = (minutes: number) => new Date(start.getTime() + minutes * MINUTE);
  it("adds the extra time after the limit or closes_at, whichever comes first; no deadline without either", () => {
    expect(deadlineFor({ timeLimitMinutes: 60, closesAt: null }, start, 30)).toEqual(at(90));
    expect(deadlineFor({ timeLimitMinutes: 60, closesAt: at(20) }, start, 30)).toEqual(at(50));
    expect(deadlineFor({ timeLimitMinutes: 60, closesAt: at(200) }, start, 30)).toEqual(at(90));
    expect(deadlineFor({ timeLimitMinutes: null, closesAt: at(20) }, start, 15)).toEqual(at(35));
    expect(deadlineFor({ timeLimitMinutes: null, closesAt: null }, start, 600)).toBeNull();
    expect(deadlineFor({ timeLimitMinutes: 60, closesAt: at(20) }, start, 0)).toEqual(at(20));
  });
});

describe("extra time at creation and when added", () => {
  it("is stored, shown in the recipient view, and makes Start's deadline start + limit + extra", async () => {
    const { code, people } = await newTest({ time_limit_minutes: 60 }, [{ email: email("slow"), extra_time_minutes: 30 }, { email: email("plain") }]);
    expect(people.map((p) => [p.extra_time_minutes, p.deadline])).toEqual([
      [30, null],
      [0, null],
    ]);
    const before = Date.now();
    const started = await start(people[0].token);
    expect(started.status).toBe(200);
    const { startedAt, deadlineAt } = await row(people[0].id);
    expect(deadlineAt!.getTime() - startedAt!.getTime()).toBe(90 * MINUTE);
    expect(started.body.deadline).toBe(deadlineAt!.toISOString());
    expect(startedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect((await deadlineSteps(people[0].id)).map((s) => s.runAt.toISOString())).toEqual([deadlineAt!.toISOString()]);
    const view = await startAndOpen(database.db, people[0].token);
    expect(view.test).toMatchObject({ timeLimitMinutes: 60, extraTimeMinutes: 30 });
    expect(view.deadline).toBe(deadlineAt!.toISOString());

    const read = await call(testRoute.GET, `/api/v1/tests/${code}`, { key: trainer.secret, params: { code } });
    expect(read.body.recipients[0]).toMatchObject({ extra_time_minutes: 30, deadline: deadlineAt!.toISOString() });
    expect(read.body.recipients[1]).toMatchObject({ extra_time_minutes: 0, deadline: null });

    const added = await call(recipientsRoute.POST, `/api/v1/tests/${code}/recipients`, {
      method: "POST",
      key: trainer.secret,
      params: { code },
      body: { recipients: [{ email: email("added"), extra_time_minutes: 45 }], send_email: false },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.data[0]).toMatchObject({ extra_time_minutes: 45, deadline: null });
    expect((await row(added.body.data[0].id)).extraTimeMinutes).toBe(45);
  });

  it("closes_at does not cut the extra time short; without a limit or closes_at there is no deadline", async () => {
    const closesAt = new Date(Date.now() + 10 * MINUTE);
    const windowed = await newTest({ time_limit_minutes: 60, closes_at: closesAt.toISOString() }, [{ email: email("w"), extra_time_minutes: 20 }]);
    await start(windowed.people[0].token);
    expect((await row(windowed.people[0].id)).deadlineAt!.getTime()).toBe(closesAt.getTime() + 20 * MINUTE);

    const open = await newTest({}, [{ email: email("o"), extra_time_minutes: 600 }]);
    const started = await start(open.people[0].token);
    expect(started.body.deadline).toBeNull();
    expect(await deadlineSteps(open.people[0].id)).toEqual([]);
  });

  it("refuses bad extra time at creation (422 naming the field), writing nothing", async () => {
    for (const bad of [-1, 601, 1.5, "30", null]) {
      const made = await call(testsRoute.POST, "/api/v1/tests", {
        method: "POST",
        key: trainer.secret,
        body: { certification_id: certificationId, domains: domainIds.slice(0, 1), questions: 2, recipients: [{ email: email("bad"), extra_time_minutes: bad }], send_email: false },
      });
      expect(made.status, JSON.stringify(bad)).toBe(422);
      expect(made.body.error.fields.map((f: { field: string }) => f.field)).toEqual(["recipients.0.extra_time_minutes"]);
    }
  });
});

describe("PATCH /tests/{code}/recipients/{id}", () => {
  it("changes the name and extra time of a recipient who has not started; Start then uses it", async () => {
    const { code, people } = await newTest({ time_limit_minutes: 10 });
    const changed = await patch(code, people[0].id, { name: "  Ada Lovelace ", extra_time_minutes: 25 });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ id: people[0].id, name: "Ada Lovelace", extra_time_minutes: 25, deadline: null, status: "sent" });
    expect(await deadlineSteps(people[0].id)).toEqual([]);
    const onlyName = await patch(code, people[0].id, { name: "Ada" });
    expect(onlyName.body).toMatchObject({ name: "Ada", extra_time_minutes: 25 });
    await start(people[0].token);
    const { startedAt, deadlineAt } = await row(people[0].id);
    expect(deadlineAt!.getTime() - startedAt!.getTime()).toBe(35 * MINUTE);
  });

  it("during an attempt moves the deadline and schedules its step; the old step, come early, does nothing", async () => {
    const { code, people } = await newTest({ time_limit_minutes: 30 });
    await start(people[0].token);
    const first = await row(people[0].id);
    const moved = await patch(code, people[0].id, { extra_time_minutes: 15 });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const after = await row(people[0].id);
    expect(after.deadlineAt!.getTime()).toBe(first.startedAt!.getTime() + 45 * MINUTE);
    expect(moved.body).toMatchObject({ status: "started", extra_time_minutes: 15, deadline: after.deadlineAt!.toISOString() });
    expect((await deadlineSteps(people[0].id)).map((s) => s.runAt.toISOString())).toEqual([first.deadlineAt!.toISOString(), after.deadlineAt!.toISOString()]);

    // The step of the old deadline runs (here: now, long before the new one): nothing changes, no error to retry.
    await expect(submitAtDeadline(database.db, people[0].id)).resolves.toBeUndefined();
    expect(await row(people[0].id)).toMatchObject({ status: "started", completedAt: null, deadlineAt: after.deadlineAt });

    // The same value again schedules nothing more.
    await patch(code, people[0].id, { extra_time_minutes: 15 });
    expect(await deadlineSteps(people[0].id)).toHaveLength(2);
  });

  it("a step a moment early (within the clock slack) is retried, not dropped", async () => {
    const { people } = await newTest({ time_limit_minutes: 1 });
    await start(people[0].token);
    // The deadline 2 s away: inside DEADLINE_CLOCK_SLACK_MS.
    expect(DEADLINE_CLOCK_SLACK_MS).toBeGreaterThan(2_000);
    await database.db.update(recipients).set({ deadlineAt: new Date(Date.now() + 2_000) }).where(eq(recipients.id, people[0].id));
    await expect(submitAtDeadline(database.db, people[0].id)).rejects.toThrow(/has not come yet/);
    expect((await row(people[0].id)).status).toBe("started");
  });

  it("answers are taken until the moved deadline; a new deadline already past submits the attempt at once, at that deadline", async () => {
    const { code, people } = await newTest({ time_limit_minutes: 1 }, [{ email: email("late"), extra_time_minutes: 10 }]);
    const view = await startAndOpen(database.db, people[0].token);
    // Two minutes into the attempt: past the limit, within the extra time.
    await startedAgo(people[0].id, 2 * MINUTE);
    expect((await answer(people[0].token, someAnswer(view.questions[0]))).status).toBe(200);

    // Extra time taken away: the deadline (start + 1 min) is a minute past. The attempt is
    // submitted at once, at that deadline, and the answer says so (found from outside: it
    // answered `started` and left the submission to a step).
    const cut = await patch(code, people[0].id, { extra_time_minutes: 0 });
    expect(cut.status, JSON.stringify(cut.body)).toBe(200);
    const { startedAt, deadlineAt } = await row(people[0].id);
    expect(deadlineAt!.getTime()).toBe(startedAt!.getTime() + MINUTE);
    expect(deadlineAt!.getTime()).toBeLessThan(Date.now());
    expect(cut.body).toMatchObject({ status: "completed", extra_time_minutes: 0, completed_at: deadlineAt!.toISOString(), deadline: deadlineAt!.toISOString() });
    expect(cut.body.result).toMatchObject({ questions: 2, correct: expect.any(Number) });
    const done = await row(people[0].id);
    expect(done).toMatchObject({ status: "completed", completedAt: deadlineAt });
    const late = await answer(people[0].token, someAnswer(view.questions[1]));
    expect(late.status).toBe(409);

    // The step of the old deadline, when it comes, leaves the completed attempt as it is.
    await submitAtDeadline(database.db, people[0].id);
    expect(await row(people[0].id)).toMatchObject({ status: "completed", completedAt: deadlineAt, result: done.result });
  });

  it("a completed recipient → 409, nothing changes", async () => {
    const { code, people } = await newTest({}, [{ email: email("done"), name: "Done", extra_time_minutes: 5 }]);
    await answerAll(database.db, people[0].token);
    await submitTest(database.db, people[0].token);
    const refused = await patch(code, people[0].id, { extra_time_minutes: 30, name: "Other" });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("conflict");
    expect(await row(people[0].id)).toMatchObject({ name: "Done", extraTimeMinutes: 5 });
  });

  it("unknown, another test's or another workspace's recipient → 404; bad bodies → 422; nothing changes", async () => {
    const { code, people } = await newTest({ time_limit_minutes: 20 }, [{ email: email("k"), name: "Kept", extra_time_minutes: 5 }]);
    const other = await newTest({});
    expect((await patch(code, 999_999_999, { extra_time_minutes: 1 })).status).toBe(404);
    expect((await patch(code, other.people[0].id, { extra_time_minutes: 1 })).status).toBe(404);
    expect((await patch("ZZZZZZZZ", people[0].id, { extra_time_minutes: 1 })).status).toBe(404);
    expect((await patch(code, people[0].id, { extra_time_minutes: 1 }, stranger.secret)).status).toBe(404);

    const bad: [unknown, string][] = [
      [{ extra_time_minutes: -1 }, "extra_time_minutes"],
      [{ extra_time_minutes: 601 }, "extra_time_minutes"],
      [{ extra_time_minutes: 2.5 }, "extra_time_minutes"],
      [{ extra_time_minutes: "10" }, "extra_time_minutes"],
      [{ extra_time_minutes: null }, "extra_time_minutes"],
      [{ name: "x".repeat(201) }, "name"],
      [{ name: 7 }, "name"],
    ];
    for (const [body, field] of bad) {
      const refused = await patch(code, people[0].id, body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body.error.fields.map((f: { field: string }) => f.field)).toEqual([field]);
    }
    const empty = await patch(code, people[0].id, {});
    expect(empty.status).toBe(422);
    expect(empty.body.error.fields.length).toBeGreaterThan(0);
    expect((await patch(code, people[0].id, "not json")).status).toBe(400);
    expect(await row(people[0].id)).toMatchObject({ name: "Kept", extraTimeMinutes: 5, deadlineAt: null });
  });
});
