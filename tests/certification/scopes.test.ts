import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as certificationRoute from "@/app/api/v1/certifications/route";
import * as classesRoute from "@/app/api/v1/classes/route";
import * as classInvitationsRoute from "@/app/api/v1/classes/[id]/invitations/route";
import * as classRoute from "@/app/api/v1/classes/[id]/route";
import * as testsRoute from "@/app/api/v1/tests/route";
import * as recipientsRoute from "@/app/api/v1/tests/[code]/recipients/route";
import * as resendRoute from "@/app/api/v1/tests/[code]/recipients/[id]/resend/route";
import * as testRoute from "@/app/api/v1/tests/[code]/route";
import * as webhooksRoute from "@/app/api/v1/webhooks/route";
import type { ApiScope } from "@/lib/kernel/scopes";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { catalogCertification, createTrainer, type Trainer } from "../helpers/fixtures";
import { call, type CallResult } from "../helpers/http";
import { isLimiterTable, rowCounter } from "../helpers/row-counts";

/**
 * The certification routes take their own scopes (issue 21: a `ctf:read` key could create
 * tests that e-mail any address, read every recipient's link and manage class invitations).
 * A narrowed key lacking the route's scope gets 403 and changes nothing; scopes add up; a
 * full-access key keeps everything. The shared route table (route-table.test.ts) checks the
 * 403 of every route against its contract's scope; this file walks the attacker's journey.
 */

let database: TestDatabase;
let rowCounts: () => Promise<Record<string, number>>;

beforeAll(async () => {
  database = await createTestDatabase();
  rowCounts = rowCounter(database, isLimiterTable);
});

afterAll(async () => {
  await database?.drop();
});

const keyOf = async (owner: Trainer, scopes: ApiScope[]) => (await createTrainer(database.db, { email: owner.email, scopes })).secret;

function expectForbidden(result: CallResult, scope: ApiScope): void {
  expect(result.status, JSON.stringify(result.body)).toBe(403);
  expect(result.body.error.code).toBe("forbidden");
  expect(result.body.error.message).toContain(scope);
}

async function fixture() {
  const owner = await createTrainer(database.db);
  const { certificationId, domainIds } = await catalogCertification(database.db);
  const testBody = { certification_id: certificationId, domains: domainIds.slice(0, 2), questions: 4, recipients: [{ email: "victim@example.test", name: "V" }], send_email: true };
  const created = await call(testsRoute.POST, "/api/v1/tests", { method: "POST", key: owner.secret, body: testBody });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const klass = await call(classesRoute.POST, "/api/v1/classes", { method: "POST", key: owner.secret, body: { name: "Evening", certification_id: certificationId, emails: ["s1@example.test"] } });
  expect(klass.status, JSON.stringify(klass.body)).toBe(201);
  return { owner, testBody, code: created.body.code as string, recipientId: String(created.body.recipients[0].id), classId: String(klass.body.id) };
}

describe("certification scopes", () => {
  it("a ctf:read key reaches no certification route: no test created, no link read, no invitation sent (403, nothing changes)", async () => {
    const { owner, testBody, code, recipientId, classId } = await fixture();
    const ctfRead = await keyOf(owner, ["ctf:read"]);
    const before = await rowCounts();

    expectForbidden(await call(testsRoute.POST, "/api/v1/tests", { method: "POST", key: ctfRead, body: testBody }), "cert:write");
    expectForbidden(await call(testsRoute.GET, "/api/v1/tests", { key: ctfRead }), "cert:read");
    expectForbidden(await call(testRoute.GET, `/api/v1/tests/${code}`, { key: ctfRead, params: { code } }), "cert:read");
    expectForbidden(
      await call(recipientsRoute.POST, `/api/v1/tests/${code}/recipients`, { method: "POST", key: ctfRead, params: { code }, body: { recipients: [{ email: "another@example.test" }] } }),
      "cert:write",
    );
    expectForbidden(await call(resendRoute.POST, `/api/v1/tests/${code}/recipients/${recipientId}/resend`, { method: "POST", key: ctfRead, params: { code, id: recipientId } }), "cert:write");
    expectForbidden(await call(classRoute.GET, `/api/v1/classes/${classId}`, { key: ctfRead, params: { id: classId } }), "cert:read");
    expectForbidden(
      await call(classInvitationsRoute.POST, `/api/v1/classes/${classId}/invitations`, { method: "POST", key: ctfRead, params: { id: classId }, body: { emails: ["x@example.test"] } }),
      "cert:write",
    );
    expectForbidden(await call(certificationRoute.GET, "/api/v1/certifications", { key: ctfRead }), "cert:read");

    expect(await rowCounts()).toEqual(before);
    // …while the competition routes its scope grants still answer.
    expect((await call(webhooksRoute.GET, "/api/v1/webhooks", { key: ctfRead })).status).toBe(200);
  });

  it("cert:read reads tests, links and classes but changes nothing; cert:write changes but does not read; together they do both", async () => {
    const { owner, testBody, code } = await fixture();
    const reader = await keyOf(owner, ["cert:read"]);
    const writer = await keyOf(owner, ["cert:write"]);
    const both = await keyOf(owner, ["cert:write", "cert:read"]);

    const read = await call(testRoute.GET, `/api/v1/tests/${code}`, { key: reader, params: { code } });
    expect(read.status).toBe(200);
    expect(read.body.recipients[0].link).toMatch(/\/t\//);
    expect((await call(classesRoute.GET, "/api/v1/classes", { key: reader })).status).toBe(200);
    const before = await rowCounts();
    expectForbidden(await call(testsRoute.POST, "/api/v1/tests", { method: "POST", key: reader, body: testBody }), "cert:write");
    expect(await rowCounts()).toEqual(before);

    expect((await call(testsRoute.POST, "/api/v1/tests", { method: "POST", key: writer, body: testBody })).status).toBe(201);
    expectForbidden(await call(testRoute.GET, `/api/v1/tests/${code}`, { key: writer, params: { code } }), "cert:read");
    // A certification scope grants no competition route.
    expectForbidden(await call(webhooksRoute.GET, "/api/v1/webhooks", { key: writer }), "ctf:read");

    expect((await call(testsRoute.POST, "/api/v1/tests", { method: "POST", key: both, body: testBody })).status).toBe(201);
    expect((await call(testsRoute.GET, "/api/v1/tests", { key: both })).body.pagination.total).toBe(3);
  });

  it("a full-access key (no scopes) keeps every route of both services", async () => {
    const { owner, code } = await fixture();
    expect((await call(testRoute.GET, `/api/v1/tests/${code}`, { key: owner.secret, params: { code } })).status).toBe(200);
    expect((await call(webhooksRoute.GET, "/api/v1/webhooks", { key: owner.secret })).status).toBe(200);
  });
});
