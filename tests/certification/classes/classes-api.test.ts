import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classes, classInvitations, emailMessages, users } from "@/db/schema";
import { saveAnswer, submitTest } from "@/lib/certification/taking/taking";
import { setPlan } from "@/lib/platform/workspaces";
import * as classesRoute from "@/app/api/v1/classes/route";
import * as classRoute from "@/app/api/v1/classes/[id]/route";
import * as invitationsRoute from "@/app/api/v1/classes/[id]/invitations/route";
import * as progressRoute from "@/app/api/v1/classes/[id]/progress/route";
import * as testsRoute from "@/app/api/v1/tests/route";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { catalogCertification, createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { someAnswer, startAndOpen } from "../../helpers/taking";
import { invitationToken } from "../../helpers/tokens";
import { joinClass, resendInvitation } from "@/lib/certification/classes/invitations";

let database: TestDatabase;
let certificationId: number;
let domainIds: number[];

beforeAll(async () => {
  database = await createTestDatabase();
  ({ certificationId, domainIds } = await catalogCertification(database.db, "comptia-network-plus-n10-009"));
});
afterAll(() => database.drop());

const count = async (table: typeof classes | typeof classInvitations | typeof emailMessages) =>
  (await database.db.select({ n: sql<number>`count(*)::int` }).from(table))[0].n;

async function student(email: string) {
  const [user] = await database.db.insert(users).values({ email }).returning();
  return { id: user.id, email };
}

describe("classes on the free plan", () => {
  let trainer: Trainer;
  beforeAll(async () => {
    trainer = await createTrainer(database.db);
  });

  it("creates a class and e-mails each invitation", async () => {
    const before = await count(emailMessages);
    const result = await call(classesRoute.POST, "/api/v1/classes", {
      method: "POST",
      key: trainer.secret,
      body: { name: "Morning group", certification_id: certificationId, emails: ["Sam@Example.com", "kim@example.com"] },
    });
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({ name: "Morning group", certification_id: certificationId, students: 0, pending_invitations: 2 });
    expect(result.body.emails).toEqual(["sam@example.com", "kim@example.com"]);
    expect(result.body.invitations.map((i: { email: string }) => i.email)).toEqual(["sam@example.com", "kim@example.com"]);
    expect((await count(emailMessages)) - before).toBe(2);
  });

  it("refuses a 2nd class and a 3rd student with 409, changing nothing", async () => {
    const before = await Promise.all([count(classes), count(classInvitations), count(emailMessages)]);
    const second = await call(classesRoute.POST, "/api/v1/classes", { method: "POST", key: trainer.secret, body: { name: "Second", certification_id: certificationId } });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe("plan_limit_exceeded");
    const [{ id }] = (await call(classesRoute.GET, "/api/v1/classes", { key: trainer.secret })).body.data;
    const third = await call(invitationsRoute.POST, `/api/v1/classes/${id}/invitations`, {
      method: "POST",
      key: trainer.secret,
      params: { id: String(id) },
      body: { emails: ["third@example.com"] },
    });
    expect(third.status).toBe(409);
    expect(await Promise.all([count(classes), count(classInvitations), count(emailMessages)])).toEqual(before);
  });

  it("lists every wrong field", async () => {
    const result = await call(classesRoute.POST, "/api/v1/classes", { method: "POST", key: trainer.secret, body: { name: "", certification_id: "x", emails: ["nope", 3] } });
    expect(result.status).toBe(422);
    expect(result.body.error.fields.map((f: { field: string }) => f.field).sort()).toEqual(["certification_id", "emails.0", "emails.1", "name"]);
  });
});

describe("students join and a test goes to the class", () => {
  it("invite → join → test to the class → complete → progress", async () => {
    const trainer = await createTrainer(database.db);
    await setPlan(database.db, trainer.workspaceId, "pro");
    const created = await call(classesRoute.POST, "/api/v1/classes", {
      method: "POST",
      key: trainer.secret,
      body: { name: "Evening", certification_id: certificationId, emails: ["ann@example.com", "ben@example.com"] },
    });
    const classId = created.body.id as number;
    const params = { id: String(classId) };

    // A test to a class without joined students is refused.
    const early = await call(testsRoute.POST, "/api/v1/tests", { method: "POST", key: trainer.secret, body: { certification_id: certificationId, domains: domainIds.slice(0, 2), questions: 2, class_id: classId } });
    expect(early.status).toBe(422);
    expect(early.body.error.fields).toEqual([{ field: "class_id", message: expect.stringContaining("no joined students") }]);

    const [annInvite] = await database.db.select().from(classInvitations).where(eq(classInvitations.email, "ann@example.com"));
    const ann = await student("ann@example.com");
    await expect(joinClass(database.db, invitationToken(annInvite), { id: ann.id, email: "mallory@example.com" })).rejects.toMatchObject({ code: "conflict" });
    await joinClass(database.db, invitationToken(annInvite), ann);
    await joinClass(database.db, invitationToken(annInvite), ann); // idempotent

    const read = await call(classRoute.GET, `/api/v1/classes/${classId}`, { key: trainer.secret, params });
    expect(read.body).toMatchObject({ students: 1, pending_invitations: 1 });
    expect(read.body.student_list[0]).toMatchObject({ email: "ann@example.com" });
    expect(read.body.invitations[0]).toMatchObject({ email: "ben@example.com" });
    await expect(resendInvitation(database.db, trainer.workspaceId, classId, annInvite.id)).rejects.toMatchObject({ code: "conflict" });
    await resendInvitation(database.db, trainer.workspaceId, classId, read.body.invitations[0].id);

    const sent = await call(testsRoute.POST, "/api/v1/tests", {
      method: "POST",
      key: trainer.secret,
      body: { certification_id: certificationId, domains: domainIds.slice(0, 2), questions: 2, class_id: classId },
    });
    expect(sent.status).toBe(201);
    expect(sent.body.recipients.map((r: { email: string }) => r.email)).toEqual(["ann@example.com"]);
    expect(sent.body.class_id).toBe(classId);

    const token = sent.body.recipients[0].link.split("/t/")[1];
    const view = await startAndOpen(database.db, token);
    for (const question of view.questions) await saveAnswer(database.db, token, someAnswer(question));
    const result = await submitTest(database.db, token);

    const progress = await call(progressRoute.GET, `/api/v1/classes/${classId}/progress`, { key: trainer.secret, params });
    expect(progress.status).toBe(200);
    const annProgress = progress.body.students.find((s: { email: string }) => s.email === "ann@example.com");
    expect(annProgress).toMatchObject({ status: "joined", tests_sent: 1, tests_started: 1, tests_completed: 1, average_percent: result.percent });
    expect(annProgress.domains).toHaveLength(2);
    expect(annProgress.last_activity_at).not.toBeNull();
    const benProgress = progress.body.students.find((s: { email: string }) => s.email === "ben@example.com");
    expect(benProgress).toMatchObject({ status: "pending", tests_sent: 0, average_percent: null });
    expect(progress.body.domains).toHaveLength(2);
  });

  it("refuses an address already invited to the class, and another workspace's class as absent", async () => {
    const trainer = await createTrainer(database.db);
    const created = await call(classesRoute.POST, "/api/v1/classes", { method: "POST", key: trainer.secret, body: { name: "Solo", certification_id: certificationId, emails: ["solo@example.com"] } });
    const params = { id: String(created.body.id) };
    const again = await call(invitationsRoute.POST, `/api/v1/classes/${params.id}/invitations`, { method: "POST", key: trainer.secret, params, body: { emails: ["solo@example.com"] } });
    expect(again.status).toBe(422);
    expect(again.body.error.fields[0]).toMatchObject({ field: "emails.0", message: expect.stringContaining("already invited") });
    const stranger = await createTrainer(database.db);
    expect((await call(classRoute.GET, `/api/v1/classes/${params.id}`, { key: stranger.secret, params })).status).toBe(404);
    expect((await call(progressRoute.GET, `/api/v1/classes/${params.id}/progress`, { key: stranger.secret, params })).status).toBe(404);
  });
});
