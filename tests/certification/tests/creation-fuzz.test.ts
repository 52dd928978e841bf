import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogCertificationId } from "@/db/seed";
import * as classesRoute from "@/app/api/v1/classes/route";
import * as testsRoute from "@/app/api/v1/tests/route";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";

let database: TestDatabase;
let trainers: Trainer[];
let certificationId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  // Several keys, so the 30-creations-per-60-s limit is not what every call runs into.
  trainers = [];
  for (let i = 0; i < 12; i++) trainers.push(await createTrainer(database.db));
  certificationId = (await catalogCertificationId(database.db, "aws-clf-c02"))!;
});
afterAll(() => database.drop());

async function snapshot(): Promise<string> {
  const rows = await database.query<Record<string, number>>(
    `select (select count(*) from tests)::int t, (select count(*) from recipients)::int r, (select count(*) from test_questions)::int q,
            (select count(*) from classes)::int c, (select count(*) from class_invitations)::int i, (select count(*) from email_messages)::int e`,
  );
  return JSON.stringify(rows[0]);
}

// Values close to valid ones as well as junk: the interesting failures live near the edges.
const nearlyValidTest = fc.record(
  {
    certification_id: fc.oneof(fc.constant(1), fc.integer(), fc.string(), fc.constant(null), fc.double()),
    domains: fc.oneof(fc.array(fc.integer({ min: -2, max: 20 }), { maxLength: 6 }), fc.string(), fc.constant([])),
    questions: fc.oneof(fc.integer({ min: -5, max: 300 }), fc.string(), fc.constant(Number.POSITIVE_INFINITY)),
    questions_per_domain: fc.oneof(fc.array(fc.record({ domain_id: fc.integer({ min: -1, max: 20 }), questions: fc.integer({ min: -1, max: 50 }) })), fc.anything()),
    recipients: fc.oneof(
      fc.array(fc.record({ email: fc.oneof(fc.emailAddress(), fc.string()), name: fc.oneof(fc.string(), fc.integer()) }, { requiredKeys: ["email"] }), { maxLength: 8 }),
      fc.anything(),
    ),
    class_id: fc.oneof(fc.integer(), fc.string()),
    send_email: fc.oneof(fc.boolean(), fc.string()),
  },
  { requiredKeys: [] },
);

const nearlyValidClass = fc.record(
  {
    name: fc.oneof(fc.string(), fc.integer(), fc.constant(""), fc.string({ minLength: 300, maxLength: 400 })),
    certification_id: fc.oneof(fc.constant(1), fc.integer(), fc.string()),
    emails: fc.oneof(fc.array(fc.oneof(fc.emailAddress(), fc.string(), fc.integer()), { maxLength: 5 }), fc.anything()),
  },
  { requiredKeys: [] },
);

const rawBodies = fc.oneof(
  fc.string(),
  fc.constantFrom("{", "[]", "null", "1", '"x"', '{"a":', "{}", '{"certification_id":1e999}', "\u0000", "[".repeat(50)),
  fc.json(),
);

let call_index = 0;
const nextKey = () => trainers[call_index++ % trainers.length].secret;

describe.each([
  { name: "POST /api/v1/tests", handler: testsRoute.POST, path: "/api/v1/tests", body: nearlyValidTest },
  { name: "POST /api/v1/classes", handler: classesRoute.POST, path: "/api/v1/classes", body: nearlyValidClass },
])("$name under random and malformed bodies", ({ handler, path, body }) => {
  const check = async (payload: unknown) => {
    const before = await snapshot();
    const result = await call(handler, path, { method: "POST", key: nextKey(), body: payload });
    expect(result.status, "the creations limit must not hide the answer").not.toBe(429);
    expect(result.status, JSON.stringify(payload).slice(0, 300)).toBeGreaterThanOrEqual(200);
    expect(result.status, JSON.stringify({ payload, response: result.body }).slice(0, 500)).toBeLessThan(500);
    if (result.status !== 201) {
      expect(result.body.error.code).toEqual(expect.any(String));
      expect(await snapshot(), "a refused request wrote nothing").toBe(before);
    }
  };

  it("answers only 2xx or 4xx to near-valid structured bodies, and refused ones write nothing", async () => {
    // Half the time the certification is a real one, so the checks past it run too.
    await fc.assert(fc.asyncProperty(body, fc.boolean(), (payload, real) => check({ ...payload, ...(real ? { certification_id: certificationId } : {}) })), {
      numRuns: 60,
    });
  });

  it("answers 400 or 422 to arbitrary raw bodies", async () => {
    await fc.assert(fc.asyncProperty(rawBodies, (raw) => check(typeof raw === "string" ? raw : JSON.stringify(raw))), { numRuns: 60 });
  });
});

describe("large and odd inputs", () => {
  it("refuses a body over 1 MB with 413 and a deep nesting with 400/422", async () => {
    const big = JSON.stringify({ recipients: Array.from({ length: 30_000 }, (_, i) => ({ email: `x${i}@example.com`, name: "n".repeat(30) })) });
    const result = await call(testsRoute.POST, "/api/v1/tests", { method: "POST", key: nextKey(), body: big });
    expect(result.status).toBe(413);
    const deep = await call(testsRoute.POST, "/api/v1/tests", { method: "POST", key: nextKey(), body: "[".repeat(10_000) + "]".repeat(10_000) });
    expect([400, 422]).toContain(deep.status);
  });
});
