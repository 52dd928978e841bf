import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { catalogCertificationId } from "@/db/seed";
import { domains } from "@/db/schema";
import { createClass } from "@/lib/certification/classes/classes";
import { createClassInput } from "@/lib/certification/classes/schemas";
import { submitTest } from "@/lib/certification/taking/taking";
import { INTEGRITY_CSV_COLUMNS } from "@/lib/certification/integrity/summary";
import { setPlan } from "@/lib/platform/workspaces";
import { workspaceUsage } from "@/lib/platform/workspaces/usage";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { signInAs } from "../../helpers/session";
import { answerAll } from "../../helpers/taking";

// The dashboard routes read the session: the trainer signed in with signInAs.
vi.mock("@/lib/platform/auth/session", () => import("../../helpers/session"));

// The dashboard calls /api/v1 with its session (no key), like an integrator with a key.
const testsRoute = await import("@/app/api/v1/tests/route");
const testRoute = await import("@/app/api/v1/tests/[code]/route");
const recipientsRoute = await import("@/app/api/v1/tests/[code]/recipients/route");
const resendRoute = await import("@/app/api/v1/tests/[code]/recipients/[id]/resend/route");
const exportRoute = await import("@/app/api/app/tests/[code]/export/route");
const certificationsRoute = await import("@/app/api/v1/certifications/route");
const certificationRoute = await import("@/app/api/v1/certifications/[id]/route");
const usageRoute = await import("@/app/api/app/usage/route");

let database: TestDatabase;
let trainer: Trainer;
let certificationId: number;
let domainIds: number[];
const sameOrigin = { origin: "http://localhost", "x-forwarded-host": "localhost" };

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  signInAs(trainer);
  certificationId = (await catalogCertificationId(database.db, "comptia-security-plus-sy0-701"))!;
  domainIds = (
    await database.db.select({ id: domains.id }).from(domains).where(eq(domains.certificationId, certificationId)).orderBy(domains.position)
  ).map((d) => d.id);
});
afterAll(() => database.drop());

describe("dashboard test routes", () => {
  it("creates, lists, reads, adds to, resends and exports a test", async () => {
    const created = await call(testsRoute.POST, "/api/v1/tests", {
      method: "POST",
      headers: sameOrigin,
      body: {
        certification_id: certificationId,
        domains: domainIds.slice(0, 2),
        questions: 5,
        recipients: [{ email: "Ada@example.com", name: "Lovelace, Ada" }],
      },
    });
    expect(created.status).toBe(201);
    const code: string = created.body.code;
    expect(created.body.domains.map((d: { questions: number }) => d.questions)).toEqual([3, 2]);

    const list = await call(testsRoute.GET, "/api/v1/tests", { query: { per_page: 10 } });
    expect(list.status).toBe(200);
    expect(list.body.data[0]).toMatchObject({ code, recipients: 1, started: 0, completed: 0 });

    const added = await call(recipientsRoute.POST, `/api/v1/tests/${code}/recipients`, {
      method: "POST",
      headers: sameOrigin,
      params: { code },
      body: { recipients: [{ email: "bob@example.com" }], send_email: false },
    });
    expect(added.status).toBe(201);

    const test = await call(testRoute.GET, `/api/v1/tests/${code}`, { params: { code } });
    expect(test.body.recipients.map((r: { email: string }) => r.email)).toEqual(["ada@example.com", "bob@example.com"]);

    const resend = await call(resendRoute.POST, "/resend", {
      method: "POST",
      headers: sameOrigin,
      params: { code, id: String(test.body.recipients[1].id) },
    });
    expect(resend.status).toBe(202);

    // Ada answers every question right.
    const token = test.body.recipients[0].link.split("/t/")[1];
    await answerAll(database.db, token);
    await submitTest(database.db, token);

    const response = await exportRoute.GET(new Request(`http://localhost/api/app/tests/${code}/export`), {
      params: Promise.resolve({ code }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="test-${code}-results.csv"`);
    const lines = (await response.text()).split("\r\n");
    const domainHeaders = test.body.domains.map((d: { name: string }) => (d.name.includes(",") ? `"${d.name} %"` : `${d.name} %`));
    expect(lines[0]).toBe(["email,name,status,sent_at,started_at,completed_at,percent,correct,questions,passed", ...domainHeaders, "certificate_url", ...INTEGRITY_CSV_COLUMNS, "email_delivery"].join(","));
    expect(lines[1]).toMatch(/^ada@example\.com,"Lovelace, Ada",completed,[^,]+,[^,]+,[^,]+,100,5,5,,100,100,,,,,,,,[a-z_]+$/);
    expect(lines[2]).toMatch(/^bob@example\.com,,sent,[^,]+,,,,,,,,,,,,,,,,[a-z_]+$/);
    expect(lines).toHaveLength(4);
  });

  it("refuses a cross-origin POST and reports plan limits as 409", async () => {
    const crossOrigin = await call(testsRoute.POST, "/api/v1/tests", { method: "POST", headers: { origin: "https://evil.example" }, body: {} });
    expect(crossOrigin.status).toBe(403);
    const tooMany = await call(testsRoute.POST, "/api/v1/tests", {
      method: "POST",
      headers: sameOrigin,
      body: {
        certification_id: certificationId,
        domains: domainIds.slice(0, 1),
        questions: 1,
        recipients: Array.from({ length: 6 }, (_, i) => ({ email: `p${i}@example.com` })),
      },
    });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error.code).toBe("plan_limit_exceeded");
  });

  it("lists certifications with filters and reads one with its domains", async () => {
    const list = await call(certificationsRoute.GET, "/api/v1/certifications", { query: { per_page: 100, search: "security" } });
    expect(list.status).toBe(200);
    expect(list.body.data.some((c: { id: number }) => c.id === certificationId)).toBe(true);
    const detail = await call(certificationRoute.GET, `/api/v1/certifications/${certificationId}`, { params: { id: String(certificationId) } });
    expect(detail.body.domains.map((d: { id: number }) => d.id)).toEqual(domainIds);
    const missing = await call(certificationRoute.GET, "/api/v1/certifications/x", { params: { id: "x" } });
    expect(missing.status).toBe(404);
  });

  it("reports plan and usage, counting each student address once", async () => {
    const before = await call(usageRoute.GET, "/api/app/usage");
    expect(before.body).toEqual({
      plan: "free",
      limits: { seats: 5, classes: 1, students: 2, apiKeys: 5 },
      usage: { classes: 0, students: 0 },
    });
    const other = await createTrainer(database.db);
    await setPlan(database.db, other.workspaceId, "pro");
    await createClass(database.db, other.workspaceId, createClassInput.parse({ name: "A", certification_id: certificationId, emails: ["s1@example.com", "s2@example.com"] }));
    await createClass(database.db, other.workspaceId, createClassInput.parse({ name: "B", certification_id: certificationId, emails: ["s2@example.com", "s3@example.com"] }));
    expect(await workspaceUsage(database.db, other.workspaceId)).toEqual({ classes: 2, students: 3 });
    expect(await workspaceUsage(database.db, trainer.workspaceId)).toEqual({ classes: 0, students: 0 });
  });
});
