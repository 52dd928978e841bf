import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { catalogCertificationId } from "@/db/seed";
import { domains, emailMessages, workspaces } from "@/db/schema";
import { createCtf } from "@/lib/ctf/competitions/competitions";
import { inviteMember } from "@/lib/ctf/competitions/members";
import { createCtfInput } from "@/lib/ctf/competitions/schemas";
import { PLAN_SETTINGS_HINT } from "@/lib/kernel/errors";
import { setPlan } from "@/lib/platform/workspaces";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call, type CallOptions } from "../../helpers/http";
import { signInAs } from "../../helpers/session";

// The dashboard routes read the session: the trainer signed in with signInAs.
vi.mock("@/lib/platform/auth/session", () => import("../../helpers/session"));

const workspaceRoute = await import("@/app/api/app/workspace/route");
const classesRoute = await import("@/app/api/v1/classes/route");
const testsRoute = await import("@/app/api/v1/tests/route");

let database: TestDatabase;
let certificationId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  certificationId = (await catalogCertificationId(database.db, "comptia-network-plus-n10-009"))!;
});
afterAll(() => database.drop());

/** A same-origin dashboard call as `who`. */
function as(who: Trainer | undefined, handler: Parameters<typeof call>[0], options: CallOptions & { path?: string } = {}) {
  signInAs(who);
  return call(handler, options.path ?? "/api/app/workspace", { ...options, headers: { origin: "http://localhost", host: "localhost", ...options.headers } });
}

const rename = (who: Trainer, name: unknown) => as(who, workspaceRoute.PATCH, { method: "PATCH", body: { name } });

describe("the workspace's settings", () => {
  it("shows the name, the plan with its usage and every plan's limits", async () => {
    const trainer = await createTrainer(database.db);
    const before = await as(trainer, workspaceRoute.GET);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      id: trainer.workspaceId,
      name: `${trainer.email.split("@")[0]}'s workspace`,
      // Not named yet: recipients read the trainer's address, not the default name.
      sender: trainer.email,
      organisation_name: "",
      certificate_signer: "",
      default_language: "en",
      plan: "free",
      limits: { seats: 5, classes: 1, students: 2, apiKeys: 5 },
      usage: { classes: 0, students: 0, largest_test: 0, api_keys: 1 },
      plans: [
        { name: "free", limits: { seats: 5, classes: 1, students: 2, apiKeys: 5 }, current: true },
        { name: "pro", limits: { seats: 1000, classes: 100, students: 1000, apiKeys: 5 }, current: false },
      ],
    });

    await call(classesRoute.POST, "/api/v1/classes", { method: "POST", key: trainer.secret, body: { name: "A", certification_id: certificationId, emails: ["a@example.com", "B <b@example.com>"] } });
    const test = await call(testsRoute.POST, "/api/v1/tests", {
      method: "POST",
      key: trainer.secret,
      body: { certification_id: certificationId, questions_per_domain: await firstDomain(), recipients: [{ email: "x@example.com" }, { email: "y@example.com" }, { email: "z@example.com" }], send_email: false },
    });
    expect(test.status, JSON.stringify(test.body)).toBe(201);
    await call(testsRoute.POST, "/api/v1/tests", {
      method: "POST",
      key: trainer.secret,
      body: { certification_id: certificationId, questions_per_domain: await firstDomain(), recipients: [{ email: "x@example.com" }], send_email: false },
    });
    await setPlan(database.db, trainer.workspaceId, "pro");
    const after = await as(trainer, workspaceRoute.GET);
    expect(after.body.usage).toEqual({ classes: 1, students: 2, largest_test: 3, api_keys: 1 });
    expect(after.body.plan).toBe("pro");
    expect(after.body.plans.map((p: { current: boolean }) => p.current)).toEqual([false, true]);
  });

  it("renames the workspace; every e-mail it sends afterwards carries the new name", async () => {
    const trainer = await createTrainer(database.db);
    await setPlan(database.db, trainer.workspaceId, "pro");
    const oldName = trainer.workspace.name;
    const renamed = await rename(trainer, "  Acme Security Academy ");
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Acme Security Academy", sender: "Acme Security Academy" });
    expect((await as(trainer, workspaceRoute.GET)).body.name).toBe("Acme Security Academy");

    await call(classesRoute.POST, "/api/v1/classes", { method: "POST", key: trainer.secret, body: { name: "Evening", certification_id: certificationId, emails: ["pupil@example.com"] } });
    await call(testsRoute.POST, "/api/v1/tests", {
      method: "POST",
      key: trainer.secret,
      body: { certification_id: certificationId, questions_per_domain: await firstDomain(), recipients: [{ email: "taker@example.com" }] },
    });
    const ctf = await createCtf(database.db, trainer.workspaceId, createCtfInput.parse({ title: "Spring CTF", starts_at: "2030-01-01T10:00:00Z", ends_at: "2030-01-02T10:00:00Z" }));
    await inviteMember(database.db, trainer.workspaceId, ctf.id, { email: "player@example.com" });

    const mails = await database.db.select().from(emailMessages).where(eq(emailMessages.workspaceId, trainer.workspaceId));
    expect(mails.map((m) => m.kind).sort()).toEqual(["class_invitation", "member_invitation", "test_invitation"]);
    for (const mail of mails) {
      expect(mail.text, mail.kind).toContain("Acme Security Academy");
      expect(mail.html, mail.kind).not.toContain(oldName.replace("'", "&#x27;"));
      expect(mail.text, mail.kind).not.toContain(oldName);
    }
  });

  it("lists what is wrong with a name and changes nothing", async () => {
    const trainer = await createTrainer(database.db);
    for (const [name, message] of [
      ["   ", "Give the workspace a name."],
      ["x".repeat(101), "At most 100 characters."],
      ["Acme\nBcc: victim@example.com", "No line breaks or control characters (nor text-direction controls)."],
      [42, undefined],
    ] as const) {
      const result = await rename(trainer, name);
      expect(result.status, String(name)).toBe(422);
      expect(result.body.error.fields[0].field).toBe("name");
      if (message) expect(result.body.error.fields[0].message).toBe(message);
    }
    const [row] = await database.db.select().from(workspaces).where(eq(workspaces.id, trainer.workspaceId));
    expect(row.name).toBe(trainer.workspace.name);
  });

  it("sets the recipients' e-mail language (en, de, fr, es); anything else is a 422 naming default_language and changes nothing", async () => {
    const trainer = await createTrainer(database.db);
    const set = (language: unknown) => as(trainer, workspaceRoute.PATCH, { method: "PATCH", body: { default_language: language } });
    const changed = await set("fr");
    expect(changed.status).toBe(200);
    expect(changed.body.default_language).toBe("fr");
    for (const wrong of ["it", "FR", "auto", "", null, 3]) {
      const refused = await set(wrong);
      expect(refused.status, String(wrong)).toBe(422);
      expect(refused.body.error.fields[0].field).toBe("default_language");
    }
    const [row] = await database.db.select().from(workspaces).where(eq(workspaces.id, trainer.workspaceId));
    expect(row.defaultLanguage).toBe("fr");
  });

  it("is the signed-in trainer's own: nobody signed in is 401, an API key is 401, another origin is 403, another trainer renames only their own", async () => {
    const trainer = await createTrainer(database.db);
    const other = await createTrainer(database.db);
    expect((await as(undefined, workspaceRoute.GET)).status).toBe(401);
    signInAs(undefined);
    const withKey = await call(workspaceRoute.PATCH, "/api/app/workspace", { method: "PATCH", key: trainer.secret, body: { name: "Via key" } });
    expect(withKey.status).toBe(401);
    const crossOrigin = await as(trainer, workspaceRoute.PATCH, { method: "PATCH", body: { name: "Evil" }, headers: { origin: "https://evil.example" } });
    expect(crossOrigin.status).toBe(403);
    await rename(other, "Other Academy");
    const [mine] = await database.db.select().from(workspaces).where(eq(workspaces.id, trainer.workspaceId));
    expect(mine.name).toBe(trainer.workspace.name);
    expect((await as(trainer, workspaceRoute.GET)).body.name).toBe(trainer.workspace.name);
  });

  it("20 renames at once: each answers 200 and the name is one of them", async () => {
    const trainer = await createTrainer(database.db);
    const names = Array.from({ length: 20 }, (_, i) => `Academy ${i}`);
    const results = await Promise.all(names.map((name) => rename(trainer, name)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const [row] = await database.db.select().from(workspaces).where(and(eq(workspaces.id, trainer.workspaceId)));
    expect(names).toContain(row.name);
  });
});

describe("plan limits point to the settings page", () => {
  it("ends the 409 of a class, student or seat limit with the settings path", async () => {
    const trainer = await createTrainer(database.db);
    await call(classesRoute.POST, "/api/v1/classes", { method: "POST", key: trainer.secret, body: { name: "A", certification_id: certificationId } });
    const second = await call(classesRoute.POST, "/api/v1/classes", { method: "POST", key: trainer.secret, body: { name: "B", certification_id: certificationId } });
    expect(second.status).toBe(409);
    expect(second.body.error.message).toBe(`The free plan allows 1 class. ${PLAN_SETTINGS_HINT}`);
    expect(PLAN_SETTINGS_HINT).toContain("/settings");
    const seats = await call(testsRoute.POST, "/api/v1/tests", {
      method: "POST",
      key: trainer.secret,
      body: { certification_id: certificationId, questions_per_domain: await firstDomain(), recipients: Array.from({ length: 6 }, (_, i) => ({ email: `p${i}@example.com` })) },
    });
    expect(seats.status).toBe(409);
    expect(seats.body.error.message.endsWith(PLAN_SETTINGS_HINT)).toBe(true);
  });
});

/** One question from the certification's first domain. */
async function firstDomain() {
  const [first] = await database.db.select({ id: domains.id }).from(domains).where(eq(domains.certificationId, certificationId)).orderBy(asc(domains.position)).limit(1);
  return [{ domain_id: first.id, questions: 1 }];
}
