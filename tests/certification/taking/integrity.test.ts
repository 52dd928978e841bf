import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answers, attemptIntegrity, recipients } from "@/db/schema";
import { openTest } from "@/lib/certification/taking/taking";
import { browserKey } from "@/lib/certification/taking/integrity";
import { MAX_HIDDEN_SPAN_MS } from "@/lib/certification/integrity/schemas";
import { setPlan } from "@/lib/platform/workspaces";
import * as testsRoute from "@/app/api/v1/tests/route";
import * as testRoute from "@/app/api/v1/tests/[code]/route";
import * as sheetRoute from "@/app/api/v1/tests/[code]/recipients/[id]/answers/route";
import * as startRoute from "@/app/api/t/[token]/start/route";
import * as answerRoute from "@/app/api/t/[token]/answers/route";
import * as submitRoute from "@/app/api/t/[token]/submit/route";
import * as eventsRoute from "@/app/api/t/[token]/events/route";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { catalogCertification, createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { tokenOf } from "../../helpers/taking";
import { recipientByToken } from "../../helpers/tokens";

/**
 * The integrity record (a test's `record_integrity`) through the real route handlers: Start
 * and submit record address and browser, the page's posts count what it saw, the answer
 * sheet and the results list read it, and bad or forged posts change nothing.
 */

let database: TestDatabase;
let trainer: Trainer;
let certificationId: number;
let domainIds: number[];

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  await setPlan(database.db, trainer.workspaceId, "pro");
  ({ certificationId, domainIds } = await catalogCertification(database.db));
});
afterAll(() => database.drop());

const BROWSER_A = "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36";
const BROWSER_B = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/605.1.15";
const from = (address: string, browser: string) => ({ "x-forwarded-for": address, "user-agent": browser });

let counter = 0;
async function newTest(settings: Record<string, unknown> = {}) {
  const made = await call(testsRoute.POST, "/api/v1/tests", {
    method: "POST",
    key: trainer.secret,
    body: {
      certification_id: certificationId,
      domains: domainIds.slice(0, 2),
      questions: 2,
      recipients: [{ email: `seen${++counter}@example.com`, name: `Seen ${counter}` }],
      send_email: false,
      ...settings,
    },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return { code: made.body.code as string, token: tokenOf(made.body.recipients[0].link), id: made.body.recipients[0].id as number };
}

const start = (token: string, headers: Record<string, string>) => call(startRoute.POST, `/api/t/${token}/start`, { method: "POST", params: { token }, headers });
const submit = (token: string, headers: Record<string, string>) => call(submitRoute.POST, `/api/t/${token}/submit`, { method: "POST", params: { token }, headers });
const post = (token: string, body: unknown, headers: Record<string, string> = from("203.0.113.7", BROWSER_A)) =>
  call(eventsRoute.POST, `/api/t/${token}/events`, { method: "POST", params: { token }, body, headers });
const sheet = async (code: string, id: number) => {
  const read = await call(sheetRoute.GET, `/api/v1/tests/${code}/recipients/${id}/answers`, { key: trainer.secret, params: { code, id: String(id) } });
  expect(read.status, JSON.stringify(read.body)).toBe(200);
  return read.body;
};
const flaggedInList = async (code: string) => (await call(testRoute.GET, `/api/v1/tests/${code}`, { key: trainer.secret, params: { code } })).body.recipients[0].integrity_flagged;
const row = async (id: number) => (await database.db.select().from(attemptIntegrity).where(eq(attemptIntegrity.recipientId, id)))[0];

async function answerEverything(token: string) {
  const view = (await openTest(database.db, token))!;
  for (const question of view.questions) {
    // A multiple-response question takes as many options as it says to choose.
    const body = question.type === "multiple" ? { question_id: question.id, options: Array.from({ length: question.choose }, (_, i) => i) } : { question_id: question.id, option: 0 };
    const saved = await call(answerRoute.PUT, `/api/t/${token}/answers`, { method: "PUT", params: { token }, body });
    expect(saved.status).toBe(200);
  }
}

/** Everything a forged post must leave alone: the recipient, their answers and the integrity row. */
async function snapshot(token: string) {
  const recipient = await recipientByToken(database.db, token);
  const given = await database.db.select().from(answers).where(eq(answers.recipientId, recipient.id));
  return { recipient, given, integrity: (await row(recipient.id)) ?? null };
}

describe("Start and submit", () => {
  it("record the address and browser of each, and the answer sheet says the address changed", async () => {
    const { code, token, id } = await newTest();
    expect((await openTest(database.db, token))!.recordIntegrity).toBe(true);
    expect((await start(token, from("203.0.113.7", BROWSER_A))).status).toBe(200);
    // Start again (idempotent) from elsewhere: the attempt was not started by it, so nothing is recorded.
    expect((await start(token, from("192.0.2.99", BROWSER_B))).status).toBe(200);
    const afterStart = (await sheet(code, id)).integrity;
    expect(afterStart).toEqual({
      start: { address: "203.0.113.7", browser: BROWSER_A },
      submit: null,
      browsers: 1,
      address_changed: false,
      hidden: { count: 0, seconds: 0 },
      copy_attempts: 0,
      fullscreen_exits: 0,
      flagged: false,
    });
    expect(await flaggedInList(code)).toBe(false);

    await answerEverything(token);
    expect((await submit(token, from("198.51.100.4", BROWSER_A))).status).toBe(200);
    // Submitting again answers the same result and records nothing.
    expect((await submit(token, from("192.0.2.99", BROWSER_B))).status).toBe(200);
    const integrity = (await sheet(code, id)).integrity;
    expect(integrity.start).toEqual({ address: "203.0.113.7", browser: BROWSER_A });
    expect(integrity.submit).toEqual({ address: "198.51.100.4", browser: BROWSER_A });
    expect(integrity).toMatchObject({ browsers: 1, address_changed: true, flagged: true });
    expect(await flaggedInList(code)).toBe(true);
  });

  it("keep a User-Agent to 300 characters, and an unreadable address as null", async () => {
    const { code, token, id } = await newTest();
    expect((await start(token, { "user-agent": `X${"y".repeat(400)}`, "x-forwarded-for": "not an address" })).status).toBe(200);
    const { start: seen } = (await sheet(code, id)).integrity;
    expect(seen.address).toBeNull();
    expect(seen.browser).toHaveLength(300);
  });
});

describe("the page's events", () => {
  it("are counted once started: hidden spans (count and seconds), copies, leaving full screen; two browsers → 2", async () => {
    const { code, token, id } = await newTest();
    // On the start page only "opened" counts (the browser), not what happens before Start.
    expect((await post(token, { events: [{ type: "opened" }, { type: "hidden", ms: 60_000 }, { type: "copy" }] })).status).toBe(204);
    expect(await row(id)).toMatchObject({ browsers: [browserKey(BROWSER_A)], hiddenCount: 0, hiddenMs: 0, copyCount: 0 });

    await start(token, from("203.0.113.7", BROWSER_A));
    const posted = await post(token, { events: [{ type: "hidden", ms: 1_500 }, { type: "hidden", ms: 2_700 }, { type: "copy" }, { type: "fullscreen_exit" }] });
    expect(posted.status).toBe(204);
    expect(posted.body).toBeUndefined();
    // The same browser again is not a second one; another one is.
    await post(token, { events: [{ type: "opened" }] });
    expect((await sheet(code, id)).integrity.browsers).toBe(1);
    await post(token, { events: [{ type: "opened" }, { type: "copy" }] }, from("198.51.100.4", BROWSER_B));

    const integrity = (await sheet(code, id)).integrity;
    expect(integrity).toMatchObject({ browsers: 2, hidden: { count: 2, seconds: 4 }, copy_attempts: 2, fullscreen_exits: 1, address_changed: false, flagged: true });
    expect(await flaggedInList(code)).toBe(true);
  });

  it("arrive as navigator.sendBeacon sends them: a Blob typed application/json, or text/plain", async () => {
    const { token, id } = await newTest();
    await start(token, from("203.0.113.7", BROWSER_A));
    const beacon = (body: BodyInit) =>
      eventsRoute.POST(new Request(`http://localhost/api/t/${token}/events`, { method: "POST", body, headers: { "user-agent": BROWSER_A } }), { params: Promise.resolve({ token }) });
    const json = JSON.stringify({ events: [{ type: "hidden", ms: 5_000 }] });
    expect((await beacon(new Blob([json], { type: "application/json" }))).status).toBe(204);
    expect((await beacon(json)).status).toBe(204); // a string: text/plain;charset=UTF-8
    expect(await row(id)).toMatchObject({ hiddenCount: 2, hiddenMs: 10_000 });
  });

  it("bound every value: a hidden span counts up to 24 h, the sums never overflow", async () => {
    const { token, id } = await newTest();
    await start(token, from("203.0.113.7", BROWSER_A));
    await post(token, { events: [{ type: "hidden", ms: 9_007_199_254_740_991 }] });
    expect(await row(id)).toMatchObject({ hiddenCount: 1, hiddenMs: MAX_HIDDEN_SPAN_MS });
    // Past 2^53 too: a whole number however large counts as a day (it was a 422).
    expect((await post(token, { events: [{ type: "hidden", ms: 1e300 }] })).status).toBe(204);
    expect(await row(id)).toMatchObject({ hiddenCount: 2, hiddenMs: 2 * MAX_HIDDEN_SPAN_MS });
    const huge = { events: Array.from({ length: 50 }, () => ({ type: "hidden", ms: 10 ** 15 })) };
    expect((await post(token, huge)).status).toBe(204);
    expect((await post(token, huge)).status).toBe(204);
    expect(await row(id)).toMatchObject({ hiddenCount: 102, hiddenMs: 2_147_483_647 });
    expect((await recipientByToken(database.db, token)).status).toBe("started");
  });

  it("are ignored once the attempt is completed; the submit record still counts", async () => {
    const { code, token, id } = await newTest();
    await start(token, from("203.0.113.7", BROWSER_A));
    await answerEverything(token);
    await submit(token, from("203.0.113.7", BROWSER_A));
    const before = await snapshot(token);
    expect((await post(token, { events: [{ type: "opened" }, { type: "hidden", ms: 9_000 }, { type: "copy" }] }, from("198.51.100.4", BROWSER_B))).status).toBe(204);
    expect(await snapshot(token)).toEqual(before);
    expect((await sheet(code, id)).integrity).toMatchObject({ browsers: 1, hidden: { count: 0, seconds: 0 }, copy_attempts: 0, flagged: false });
  });
});

describe("bad or forged posts", () => {
  it("answer 422, 400, 413 or 404 and change nothing", async () => {
    const { token } = await newTest();
    await start(token, from("203.0.113.7", BROWSER_A));
    await post(token, { events: [{ type: "copy" }] });
    const before = await snapshot(token);
    const refused: [unknown, number, string?][] = [
      [{ events: [{ type: "keylogger" }] }, 422, "events.0.type"],
      [{ events: [{ type: "hidden", ms: -5 }] }, 422, "events.0.ms"],
      [{ events: [{ type: "hidden", ms: 1.5 }] }, 422, "events.0.ms"],
      [{ events: [{ type: "hidden" }] }, 422, "events.0.ms"],
      [{ events: [{ type: "copy", status: "completed" }] }, 422],
      [{ events: [] }, 422, "events"],
      [{ events: Array.from({ length: 51 }, () => ({ type: "copy" })) }, 422, "events"],
      [{ events: [{ type: "copy" }], result: { percent: 100 } }, 422],
      [{}, 422, "events"],
      ["{not json", 400],
      [{ events: [{ type: "copy", pad: "x".repeat(20_000) }] }, 413],
    ];
    for (const [body, status, field] of refused) {
      const answer = await post(token, body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      if (field) expect(answer.body.error.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    // Unknown or malformed tokens: 404.
    expect((await post("A".repeat(32), { events: [{ type: "copy" }] })).status).toBe(404);
    expect((await post("nope", { events: [{ type: "copy" }] })).status).toBe(404);
    expect(await snapshot(token)).toEqual(before);
  });
});

describe("record_integrity false", () => {
  it("records nothing: no row at start, on events or at submit; integrity null, never flagged; the page is not told to record", async () => {
    const { code, token, id } = await newTest({ record_integrity: false });
    expect((await openTest(database.db, token))!.recordIntegrity).toBe(false);
    await start(token, from("203.0.113.7", BROWSER_A));
    expect((await post(token, { events: [{ type: "opened" }, { type: "hidden", ms: 4_000 }, { type: "copy" }] }, from("198.51.100.4", BROWSER_B))).status).toBe(204);
    await answerEverything(token);
    await submit(token, from("198.51.100.4", BROWSER_B));
    expect(await row(id)).toBeUndefined();
    expect((await sheet(code, id)).integrity).toBeNull();
    expect(await flaggedInList(code)).toBe(false);
    const test = await call(testRoute.GET, `/api/v1/tests/${code}`, { key: trainer.secret, params: { code } });
    expect(test.body.record_integrity).toBe(false);
  });

  it("a recipient deleted with their test takes the record along (on delete cascade)", async () => {
    const { token, id } = await newTest();
    await start(token, from("203.0.113.7", BROWSER_A));
    expect(await row(id)).toBeDefined();
    await database.db.delete(recipients).where(eq(recipients.id, id));
    expect(await row(id)).toBeUndefined();
  });
});
