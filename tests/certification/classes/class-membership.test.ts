import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogCertificationId } from "@/db/seed";
import { classInvitations, domains, emailMessages, recipients, tests, users } from "@/db/schema";
import { createCertification } from "@/lib/certification/catalog/catalog";
import { createCertificationInput } from "@/lib/certification/catalog/schemas";
import { studentArea } from "@/lib/certification/students/area";
import { submitTest } from "@/lib/certification/taking/taking";
import { setPlan } from "@/lib/platform/workspaces";
import { workspaceUsage } from "@/lib/platform/workspaces/usage";
import * as classesRoute from "@/app/api/v1/classes/route";
import * as classRoute from "@/app/api/v1/classes/[id]/route";
import * as invitationsRoute from "@/app/api/v1/classes/[id]/invitations/route";
import * as invitationRoute from "@/app/api/v1/classes/[id]/invitations/[invitation_id]/route";
import * as studentRoute from "@/app/api/v1/classes/[id]/students/[student_id]/route";
import * as progressRoute from "@/app/api/v1/classes/[id]/progress/route";
import * as testsRoute from "@/app/api/v1/tests/route";
import * as testRoute from "@/app/api/v1/tests/[code]/route";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { answerAll, tokenOf } from "../../helpers/taking";
import { invitationToken, invitationTokenById } from "../../helpers/tokens";
import { findInvitation, joinClass } from "@/lib/certification/classes/invitations";

/**
 * Classes that hold together: students invited with their names, removed again, invitations
 * cancelled (each freeing its place), tests of the class's certification only, and a
 * progress view that never mixes two certifications' domains. Through the real route
 * handlers with an API key; 20 concurrent removals run on PostgreSQL too (`npm run test:pg`).
 */

let database: TestDatabase;
let catalogId: number;
let catalogDomains: number[];
let otherCatalogId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  catalogId = (await catalogCertificationId(database.db, "comptia-network-plus-n10-009"))!;
  otherCatalogId = (await catalogCertificationId(database.db, "aws-clf-c02"))!;
  catalogDomains = (await database.db.select({ id: domains.id }).from(domains).where(eq(domains.certificationId, catalogId)).orderBy(domains.position)).map((d) => d.id);
});
afterAll(() => database.drop());

let counter = 0;
const address = (who: string) => `${who}-${Date.now()}-${counter++}@example.com`;

async function newClass(trainer: Trainer, emails: unknown[], certificationId = catalogId) {
  const result = await call(classesRoute.POST, "/api/v1/classes", { method: "POST", key: trainer.secret, body: { name: `Class ${counter++}`, certification_id: certificationId, emails } });
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  return result.body as { id: number; invitations: { id: number; email: string; name: string | null }[] };
}

/** The invited person signs in with the invited address and joins; `name` is their account's own name. */
async function join(email: string, name: string | null = null) {
  const [invitation] = await database.db.select().from(classInvitations).where(eq(classInvitations.email, email));
  const [user] = await database.db.insert(users).values({ email, name }).onConflictDoNothing().returning();
  const account = user ?? (await database.db.select().from(users).where(eq(users.email, email)))[0];
  await joinClass(database.db, invitationToken(invitation), { id: account.id, email });
  return { invitationId: invitation.id, userId: account.id };
}

const removeStudent = (trainer: Trainer, classId: number | string, studentId: number | string) =>
  call(studentRoute.DELETE, `/api/v1/classes/${classId}/students/${studentId}`, { method: "DELETE", key: trainer.secret, params: { id: String(classId), student_id: String(studentId) } });

const cancelInvitation = (trainer: Trainer, classId: number | string, invitationId: number | string) =>
  call(invitationRoute.DELETE, `/api/v1/classes/${classId}/invitations/${invitationId}`, {
    method: "DELETE",
    key: trainer.secret,
    params: { id: String(classId), invitation_id: String(invitationId) },
  });

/** The recipient presses Start, answers every question (all right unless `right` says how many), and submits. */
async function completeAll(link: string, right = Infinity) {
  await answerAll(database.db, tokenOf(link), right);
  return submitTest(database.db, tokenOf(link));
}

describe("invitations with names, as test recipients are given", () => {
  it("reads `Name <email>`, `email, name`, a plain address and `{ email, name }`; the e-mail greets by name", async () => {
    const trainer = await createTrainer(database.db);
    await setPlan(database.db, trainer.workspaceId, "pro");
    const [ada, grace, alan, kim] = ["ada", "grace", "alan", "kim"].map(address);
    const klass = await newClass(trainer, [`Ada Lovelace <${ada.toUpperCase()}>`, `${grace}, Grace Hopper`, alan, { email: kim, name: "Kim Ng" }]);
    expect(klass.invitations.map(({ email, name }) => ({ email, name }))).toEqual([
      { email: ada, name: "Ada Lovelace" },
      { email: grace, name: "Grace Hopper" },
      { email: alan, name: null },
      { email: kim, name: "Kim Ng" },
    ]);
    const [mail] = await database.db.select().from(emailMessages).where(and(eq(emailMessages.to, ada), eq(emailMessages.kind, "class_invitation")));
    expect(mail.text).toContain("Hello Ada Lovelace,");
    const [plain] = await database.db.select().from(emailMessages).where(and(eq(emailMessages.to, alan), eq(emailMessages.kind, "class_invitation")));
    expect(plain.text).toContain("Hello,");

    // More students the same way; the joined student's own account name wins over the one given.
    const more = await call(invitationsRoute.POST, `/api/v1/classes/${klass.id}/invitations`, {
      method: "POST",
      key: trainer.secret,
      params: { id: String(klass.id) },
      body: { emails: [`"Doe, Jane" <${address("jane")}>`] },
    });
    expect(more.status).toBe(201);
    expect(more.body.invitations.at(-1).name).toBe("Doe, Jane");
    await join(ada, "Augusta Ada King");
    await join(grace);
    const read = await call(classRoute.GET, `/api/v1/classes/${klass.id}`, { key: trainer.secret, params: { id: String(klass.id) } });
    expect(read.body.student_list.map(({ email, name }: { email: string; name: string }) => ({ email, name }))).toEqual([
      { email: ada, name: "Augusta Ada King" },
      { email: grace, name: "Grace Hopper" },
    ]);
    for (const student of read.body.student_list) expect(student.id).toBe(student.invitation_id);

    // A test to the class carries the students' names to its recipients.
    const sent = await call(testsRoute.POST, "/api/v1/tests", {
      method: "POST",
      key: trainer.secret,
      body: { certification_id: catalogId, domains: catalogDomains.slice(0, 1), questions: 1, class_id: klass.id, send_email: false },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body.recipients.map(({ email, name }: { email: string; name: string }) => ({ email, name }))).toEqual([
      { email: ada, name: "Augusta Ada King" },
      { email: grace, name: "Grace Hopper" },
    ]);
  });

  it("names each wrong entry, and refuses an address given twice in two forms, writing nothing", async () => {
    const trainer = await createTrainer(database.db);
    const before = (await database.db.select({ n: sql<number>`count(*)::int` }).from(classInvitations))[0].n;
    const ann = address("ann");
    const result = await call(classesRoute.POST, "/api/v1/classes", {
      method: "POST",
      key: trainer.secret,
      body: { name: "X", certification_id: catalogId, emails: ["Only A Name", `${ann}, ${address("bob")}`, `Ann <${ann}>`, ann, { email: "nope" }, 42, "Bad <not-an-address>"] },
    });
    expect(result.status).toBe(422);
    const fields = Object.fromEntries(result.body.error.fields.map((f: { field: string; message: string }) => [f.field, f.message]));
    expect(Object.keys(fields).sort()).toEqual(["emails.0", "emails.1", "emails.4.email", "emails.5", "emails.6"]);
    expect(fields["emails.0"]).toMatch(/No e-mail address: give an address, `Name <address>` or `address, name`/);
    expect(fields["emails.1"]).toMatch(/One student per entry/);
    expect(fields["emails.5"]).toMatch(/or an object \{ email, name \}/);
    expect(fields["emails.6"]).toMatch(/Not a valid e-mail address/);

    // Well-formed, but the same address twice (once with a name): the second is the field error.
    const twice = await call(classesRoute.POST, "/api/v1/classes", { method: "POST", key: trainer.secret, body: { name: "X", certification_id: catalogId, emails: [`Ann <${ann}>`, ann.toUpperCase()] } });
    expect(twice.status).toBe(422);
    expect(twice.body.error.fields).toEqual([{ field: "emails.1", message: `${ann} appears twice.` }]);
    expect((await database.db.select({ n: sql<number>`count(*)::int` }).from(classInvitations))[0].n).toBe(before);
  });
});

describe("removing a student", () => {
  it("frees the place, keeps the results of tests already sent, and leaves the class's progress and the student's area", async () => {
    const trainer = await createTrainer(database.db); // free plan: 2 students
    const [sam, kim] = [address("sam"), address("kim")];
    const klass = await newClass(trainer, [`Sam <${sam}>`, kim]);
    const { invitationId: samId, userId: samUser } = await join(sam);
    await join(kim);
    const sent = await call(testsRoute.POST, "/api/v1/tests", {
      method: "POST",
      key: trainer.secret,
      body: { certification_id: catalogId, domains: catalogDomains.slice(0, 1), questions: 1, class_id: klass.id, send_email: false },
    });
    const samRecipient = sent.body.recipients.find((r: { email: string }) => r.email === sam);
    const result = await completeAll(samRecipient.link);

    // The plan is full: a third student is refused, and the message points to the plans.
    const third = await call(invitationsRoute.POST, `/api/v1/classes/${klass.id}/invitations`, { method: "POST", key: trainer.secret, params: { id: String(klass.id) }, body: { emails: [address("lee")] } });
    expect(third.status).toBe(409);
    expect(third.body.error.message).toContain("/settings");

    const removed = await removeStudent(trainer, klass.id, samId);
    expect(removed.status).toBe(200);
    expect(removed.body.student_list.map((s: { email: string }) => s.email)).toEqual([kim]);
    expect(removed.body.emails).toEqual([kim]);
    expect(await workspaceUsage(database.db, trainer.workspaceId)).toEqual({ classes: 1, students: 1 });

    // Their result stays in the test, and in their own area; the class leaves their area and its progress.
    const test = await call(testRoute.GET, `/api/v1/tests/${sent.body.code}`, { key: trainer.secret, params: { code: sent.body.code } });
    expect(test.body.recipients.find((r: { email: string }) => r.email === sam)).toMatchObject({ status: "completed", result: { percent: result.percent } });
    const area = await studentArea(database.db, { id: samUser, email: sam });
    expect(area.classes).toEqual([]);
    expect(area.tests.map((t) => [t.code, t.status])).toEqual([[sent.body.code, "completed"]]);
    const progress = await call(progressRoute.GET, `/api/v1/classes/${klass.id}/progress`, { key: trainer.secret, params: { id: String(klass.id) } });
    expect(progress.body.students.map((s: { email: string }) => s.email)).toEqual([kim]);

    // The freed place takes a new student; a later test to the class does not go to the removed one.
    const next = await call(invitationsRoute.POST, `/api/v1/classes/${klass.id}/invitations`, { method: "POST", key: trainer.secret, params: { id: String(klass.id) }, body: { emails: [address("lee")] } });
    expect(next.status).toBe(201);
    const later = await call(testsRoute.POST, "/api/v1/tests", {
      method: "POST",
      key: trainer.secret,
      body: { certification_id: catalogId, domains: catalogDomains.slice(0, 1), questions: 1, class_id: klass.id, send_email: false },
    });
    expect(later.body.recipients.map((r: { email: string }) => r.email)).toEqual([kim]);

    // Removed already: 404, as a student that never was.
    const again = await removeStudent(trainer, klass.id, samId);
    expect(again.status).toBe(404);
    expect(again.body.error).toMatchObject({ code: "not_found", message: "Student not found." });
    expect((await removeStudent(trainer, klass.id, 2147483647)).body.error.message).toBe("Student not found.");
  });

  it("is a 404 for a pending invitation's id, for another class's student and for another workspace", async () => {
    const trainer = await createTrainer(database.db);
    await setPlan(database.db, trainer.workspaceId, "pro");
    const [ann, bob] = [address("ann"), address("bob")];
    const first = await newClass(trainer, [ann, bob]);
    const second = await newClass(trainer, []);
    const { invitationId } = await join(ann);
    const pending = first.invitations.find((i) => i.email === bob)!;

    expect((await removeStudent(trainer, first.id, pending.id)).status).toBe(404);
    expect((await removeStudent(trainer, second.id, invitationId)).status).toBe(404);
    const stranger = await createTrainer(database.db);
    const foreign = await removeStudent(stranger, first.id, invitationId);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe("Class not found.");
    expect((await removeStudent(trainer, first.id, "abc")).status).toBe(404);
    // Nothing of the above removed anyone.
    expect((await database.db.select().from(classInvitations).where(eq(classInvitations.classId, first.id))).map((i) => i.status).sort()).toEqual(["joined", "pending"]);
  });

  it("takes cert:write, as the other class writes do: a ctf:read or cert:read key gets 403 and the student stays", async () => {
    const trainer = await createTrainer(database.db);
    const ann = address("ann");
    const klass = await newClass(trainer, [ann]);
    const { invitationId } = await join(ann);
    for (const scopes of [["ctf:read"], ["cert:read"]] as const) {
      const refused = await removeStudent(await createTrainer(database.db, { email: trainer.email, scopes: [...scopes] }), klass.id, invitationId);
      expect(refused.status, scopes[0]).toBe(403);
      expect(refused.body.error.message).toContain("cert:write");
    }
    const writer = await createTrainer(database.db, { email: trainer.email, scopes: ["cert:write"] });
    expect((await removeStudent(writer, klass.id, invitationId)).status).toBe(200);
  });
});

describe("cancelling an invitation", () => {
  it("deletes it (its link no longer works) and frees the place; again is a 404; an accepted one is a 409", async () => {
    const trainer = await createTrainer(database.db);
    const [ann, bob] = [address("ann"), address("bob")];
    const klass = await newClass(trainer, [ann, bob]);
    const [annInvite, bobInvite] = klass.invitations;
    const token = await invitationTokenById(database.db, bobInvite.id);
    await join(ann);

    const cancelled = await cancelInvitation(trainer, klass.id, bobInvite.id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.invitations).toEqual([]);
    expect(cancelled.body.pending_invitations).toBe(0);
    expect(await findInvitation(database.db, token)).toBeUndefined();
    const [bobUser] = await database.db.insert(users).values({ email: bob }).returning();
    await expect(joinClass(database.db, token, { id: bobUser.id, email: bob })).rejects.toMatchObject({ code: "not_found" });
    expect(await workspaceUsage(database.db, trainer.workspaceId)).toEqual({ classes: 1, students: 1 });

    const again = await cancelInvitation(trainer, klass.id, bobInvite.id);
    expect(again.status).toBe(404);
    expect(again.body.error.message).toBe("Invitation not found.");
    const accepted = await cancelInvitation(trainer, klass.id, annInvite.id);
    expect(accepted.status).toBe(409);
    expect(accepted.body.error).toMatchObject({ code: "conflict", message: expect.stringContaining("remove the student instead") });
    const stranger = await createTrainer(database.db);
    expect((await cancelInvitation(stranger, klass.id, annInvite.id)).status).toBe(404);

    // The address can be invited again, with a new link.
    const reinvited = await call(invitationsRoute.POST, `/api/v1/classes/${klass.id}/invitations`, { method: "POST", key: trainer.secret, params: { id: String(klass.id) }, body: { emails: [bob] } });
    expect(reinvited.status).toBe(201);
    const [fresh] = await database.db.select().from(classInvitations).where(and(eq(classInvitations.classId, klass.id), eq(classInvitations.email, bob)));
    expect(invitationToken(fresh)).not.toBe(token);
  });
});

describe("twenty at once", () => {
  it("20 concurrent removals of one student: one 200, the others 404, no 5xx", async () => {
    const trainer = await createTrainer(database.db);
    const ann = address("ann");
    const klass = await newClass(trainer, [ann]);
    const { invitationId } = await join(ann);
    const results = await Promise.all(Array.from({ length: 20 }, () => removeStudent(trainer, klass.id, invitationId)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(19).fill(404)]);
    expect(await database.db.select().from(classInvitations).where(eq(classInvitations.classId, klass.id))).toEqual([]);
  });

  it("20 concurrent cancellations of one invitation: one 200, the others 404, no 5xx", async () => {
    const trainer = await createTrainer(database.db);
    const klass = await newClass(trainer, [address("ann")]);
    const results = await Promise.all(Array.from({ length: 20 }, () => cancelInvitation(trainer, klass.id, klass.invitations[0].id)));
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(19).fill(404)]);
  });

  it("a cancellation racing the student's join: exactly one of them wins, neither answers 5xx", async () => {
    for (let round = 0; round < 5; round++) {
      const trainer = await createTrainer(database.db);
      const ann = address("ann");
      const klass = await newClass(trainer, [ann]);
      const [invitation] = await database.db.select().from(classInvitations).where(eq(classInvitations.id, klass.invitations[0].id));
      const [user] = await database.db.insert(users).values({ email: ann }).returning();
      const [cancelled, joined] = await Promise.all([
        cancelInvitation(trainer, klass.id, invitation.id),
        joinClass(database.db, invitationToken(invitation), { id: user.id, email: ann }).then(
          () => "joined",
          (error) => error.code,
        ),
      ]);
      const rows = await database.db.select().from(classInvitations).where(eq(classInvitations.classId, klass.id));
      if (cancelled.status === 200) {
        expect(joined).toBe("not_found");
        expect(rows).toEqual([]);
      } else {
        expect(cancelled.status).toBe(409);
        expect(joined).toBe("joined");
        expect(rows.map((r) => r.status)).toEqual(["joined"]);
      }
    }
  });
});

describe("a class's tests use its certification", () => {
  it("answers 422 on certification_id for another certification, writing nothing; the class's own is sent", async () => {
    const trainer = await createTrainer(database.db);
    const ann = address("ann");
    const klass = await newClass(trainer, [ann]);
    await join(ann);
    const otherDomains = (await database.db.select({ id: domains.id }).from(domains).where(eq(domains.certificationId, otherCatalogId))).map((d) => d.id);
    const before = (await database.db.select({ n: sql<number>`count(*)::int` }).from(tests))[0].n;
    const refused = await call(testsRoute.POST, "/api/v1/tests", {
      method: "POST",
      key: trainer.secret,
      body: { certification_id: otherCatalogId, domains: otherDomains.slice(0, 1), questions: 1, class_id: klass.id },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.fields).toEqual([
      { field: "certification_id", message: expect.stringMatching(new RegExp(`is for CompTIA Network\\+.*\\(certification_id ${catalogId}\\): a test sent to it uses that certification\\.`)) },
    ]);
    expect((await database.db.select({ n: sql<number>`count(*)::int` }).from(tests))[0].n).toBe(before);

    // A certification that does not exist is told once, as before.
    const missing = await call(testsRoute.POST, "/api/v1/tests", { method: "POST", key: trainer.secret, body: { certification_id: 2147483647, domains: [1], questions: 1, class_id: klass.id } });
    expect(missing.body.error.fields).toEqual([{ field: "certification_id", message: "No such certification in your catalog." }]);

    const sent = await call(testsRoute.POST, "/api/v1/tests", {
      method: "POST",
      key: trainer.secret,
      body: { certification_id: catalogId, domains: catalogDomains.slice(0, 1), questions: 1, class_id: klass.id, send_email: false },
    });
    expect(sent.status).toBe(201);
  });
});

describe("progress by certification", () => {
  it("keeps two certifications' domains of the same name apart (tests sent before the rule)", async () => {
    const trainer = await createTrainer(database.db);
    await setPlan(database.db, trainer.workspaceId, "pro");
    const own = async (name: string) =>
      createCertification(
        database.db,
        trainer.workspaceId,
        createCertificationInput.parse({
          name,
          vendor: "Acme",
          domains: [{ name: "Security", questions: [{ prompt: `${name}?`, options: ["right", "wrong"], correct: 0 }] }],
        }),
      );
    const [cloud, network] = [await own("Cloud"), await own("Network")];
    const ann = address("ann");
    const klass = await newClass(trainer, [ann], cloud.id);
    await join(ann);
    const toClass = await call(testsRoute.POST, "/api/v1/tests", {
      method: "POST",
      key: trainer.secret,
      body: { certification_id: cloud.id, domains: [cloud.domains[0].id], questions: 1, class_id: klass.id, send_email: false },
    });
    // A test of another certification that reached the class before the rule: sent to the student, then filed under the class.
    const legacy = await call(testsRoute.POST, "/api/v1/tests", {
      method: "POST",
      key: trainer.secret,
      body: { certification_id: network.id, domains: [network.domains[0].id], questions: 1, recipients: [{ email: ann }], send_email: false },
    });
    await database.db.update(tests).set({ classId: klass.id }).where(eq(tests.code, legacy.body.code));
    await completeAll(toClass.body.recipients[0].link); // right
    await completeAll(legacy.body.recipients[0].link, 0); // wrong

    const progress = await call(progressRoute.GET, `/api/v1/classes/${klass.id}/progress`, { key: trainer.secret, params: { id: String(klass.id) } });
    expect(progress.status).toBe(200);
    expect(progress.body.domains).toEqual([
      { id: cloud.domains[0].id, name: "Security", certification_id: cloud.id, certification: "Cloud" },
      { id: network.domains[0].id, name: "Security", certification_id: network.id, certification: "Network" },
    ]);
    const [student] = progress.body.students;
    expect(student).toMatchObject({ tests_completed: 2, average_percent: 50 });
    expect(student.domains).toEqual(
      expect.arrayContaining([
        { id: cloud.domains[0].id, name: "Security", certification_id: cloud.id, average_percent: 100 },
        { id: network.domains[0].id, name: "Security", certification_id: network.id, average_percent: 0 },
      ]),
    );
    expect(student.domains).toHaveLength(2);
    // The recipients of both tests are still there.
    expect(await database.db.select({ id: recipients.id }).from(recipients).where(eq(recipients.email, ann))).toHaveLength(2);
  });
});
