import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { catalogCertificationId } from "@/db/seed";
import { domains, emailMessages, users, workspaces } from "@/db/schema";
import { findInvitation } from "@/lib/certification/classes/invitations";
import { studentArea } from "@/lib/certification/students/area";
import { createCtf } from "@/lib/ctf/competitions/competitions";
import { inviteMember } from "@/lib/ctf/competitions/members";
import { createCtfInput } from "@/lib/ctf/competitions/schemas";
import { setPlan } from "@/lib/platform/workspaces";
import { defaultWorkspaceName, senderName } from "@/lib/platform/workspaces/sender";
import { welcomeState } from "@/lib/platform/workspaces/welcome";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { signInAs } from "../../helpers/session";

// The dashboard routes read the session: the trainer signed in with signInAs.
vi.mock("@/lib/platform/auth/session", () => import("../../helpers/session"));

const welcomeRoute = await import("@/app/api/app/welcome/route");
const classesRoute = await import("@/app/api/v1/classes/route");
const testsRoute = await import("@/app/api/v1/tests/route");

/**
 * Who recipients read as the sender: the organisation's name once the trainer gives one,
 * meanwhile the trainer's name, else their address; never "<local part>'s workspace". The
 * first sign-in's welcome step asks for both, once (saved or skipped).
 */

let database: TestDatabase;
let certificationId: number;
let domainId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  certificationId = (await catalogCertificationId(database.db, "comptia-network-plus-n10-009"))!;
  [{ id: domainId }] = await database.db.select({ id: domains.id }).from(domains).where(eq(domains.certificationId, certificationId)).limit(1);
});
afterAll(() => database.drop());

const answer = (who: Trainer, body: unknown) => {
  signInAs(who);
  return call(welcomeRoute.POST, "/api/app/welcome", { method: "POST", body, headers: { origin: "http://localhost", host: "localhost" } });
};

/** E-mails a test to `to` and returns that e-mail's text. */
async function invitationText(trainer: Trainer, to: string): Promise<string> {
  const made = await call(testsRoute.POST, "/api/v1/tests", {
    method: "POST",
    key: trainer.secret,
    body: { certification_id: certificationId, questions_per_domain: [{ domain_id: domainId, questions: 1 }], recipients: [{ email: to }] },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const [mail] = await database.db.select().from(emailMessages).where(and(eq(emailMessages.workspaceId, trainer.workspaceId), eq(emailMessages.to, to)));
  return mail.text;
}

describe("senderName", () => {
  const parts = { name: defaultWorkspaceName("trainer.walk@example.com"), organisationName: "", ownerName: null, ownerEmail: "trainer.walk@example.com" };
  it("passes over the default name: the issuer's organisation, else the person's name, else the address", () => {
    expect(senderName(parts)).toBe("trainer.walk@example.com");
    expect(senderName({ ...parts, ownerName: "  " })).toBe("trainer.walk@example.com");
    expect(senderName({ ...parts, ownerName: "Tess Walker" })).toBe("Tess Walker");
    expect(senderName({ ...parts, ownerName: "Tess Walker", organisationName: "Walk Academy" })).toBe("Walk Academy");
    expect(senderName({ ...parts, name: "My workspace" })).toBe("trainer.walk@example.com");
  });
  it("a chosen name wins, even one that looks like another person's default", () => {
    expect(senderName({ ...parts, name: "Acme Academy", ownerName: "Tess Walker" })).toBe("Acme Academy");
    expect(senderName({ ...parts, name: "bob's workspace" })).toBe("bob's workspace");
  });
});

describe("the welcome step and the sender's name", () => {
  it("until named, e-mails and pages carry the address; Save with a name puts the person's name there, and the step is answered", async () => {
    const trainer = await createTrainer(database.db);
    await setPlan(database.db, trainer.workspaceId, "pro");
    expect(await welcomeState(database.db, trainer.workspaceId)).toEqual({ show: true, sender: trainer.email });

    const before = await invitationText(trainer, "first@example.com");
    expect(before).toContain(`${trainer.email} sent you`);
    expect(before).not.toContain("'s workspace");

    const saved = await answer(trainer, { your_name: "  Tess Walker ", organisation_name: "" });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toEqual({ show: false, sender: "Tess Walker" });
    expect(await invitationText(trainer, "second@example.com")).toContain("Tess Walker sent you");
    // The workspace keeps its default name (the person did not name it); the header and Settings show it as before.
    const [workspace] = await database.db.select().from(workspaces).where(eq(workspaces.id, trainer.workspaceId));
    expect(workspace.name).toBe(defaultWorkspaceName(trainer.email));
  });

  it("Save with an organisation names the workspace: every e-mail and page says it", async () => {
    const trainer = await createTrainer(database.db);
    await setPlan(database.db, trainer.workspaceId, "pro");
    const saved = await answer(trainer, { your_name: "Tess Walker", organisation_name: "Walk Academy" });
    expect(saved.body).toEqual({ show: false, sender: "Walk Academy" });
    expect(await invitationText(trainer, "org@example.com")).toContain("Walk Academy sent you");

    await call(classesRoute.POST, "/api/v1/classes", { method: "POST", key: trainer.secret, body: { name: "Evening", certification_id: certificationId, emails: ["pupil@example.com"] } });
    const ctf = await createCtf(database.db, trainer.workspaceId, createCtfInput.parse({ title: "Spring CTF", starts_at: "2030-01-01T10:00:00Z", ends_at: "2030-01-02T10:00:00Z" }));
    await inviteMember(database.db, trainer.workspaceId, ctf.id, { email: "player@example.com" });
    const mails = await database.db.select().from(emailMessages).where(eq(emailMessages.workspaceId, trainer.workspaceId));
    for (const kind of ["class_invitation", "member_invitation"]) {
      expect(mails.find((mail) => mail.kind === kind)?.text, kind).toContain("Walk Academy");
    }
    // The student's area names the sender the same way.
    const area = await studentArea(database.db, { id: "nobody", email: "org@example.com" });
    expect(area.tests.map((test) => test.trainer)).toEqual(["Walk Academy"]);
  });

  it("Skip answers it for good; e-mails and the join page then carry the address", async () => {
    const trainer = await createTrainer(database.db);
    const skipped = await answer(trainer, {});
    expect(skipped.status).toBe(200);
    expect(skipped.body).toEqual({ show: false, sender: trainer.email });
    expect((await welcomeState(database.db, trainer.workspaceId)).show).toBe(false);
    const [owner] = await database.db.select({ name: users.name }).from(users).where(eq(users.id, trainer.userId));
    expect(owner.name).toBe("");

    const made = await call(classesRoute.POST, "/api/v1/classes", { method: "POST", key: trainer.secret, body: { name: "Morning", certification_id: certificationId, emails: ["joiner@example.com"] } });
    expect(made.status).toBe(201);
    const [mail] = await database.db.select().from(emailMessages).where(and(eq(emailMessages.workspaceId, trainer.workspaceId), eq(emailMessages.kind, "class_invitation")));
    expect(mail.text).toContain(`${trainer.email} invited you`);
    const token = mail.text.match(/\/join\/([A-Za-z0-9_-]+)/)![1];
    expect((await findInvitation(database.db, token))?.trainer).toBe(trainer.email);
  });

  it("a workspace already named is not asked; a name with a line break is refused in the form's words", async () => {
    const trainer = await createTrainer(database.db);
    await database.db.update(workspaces).set({ name: "Named Before" }).where(eq(workspaces.id, trainer.workspaceId));
    expect(await welcomeState(database.db, trainer.workspaceId)).toEqual({ show: false, sender: "Named Before" });

    const other = await createTrainer(database.db);
    const refused = await answer(other, { organisation_name: "Evil\nBcc: x@example.com" });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain("No line breaks or control characters (nor text-direction controls).");
    expect((await welcomeState(database.db, other.workspaceId)).show).toBe(true);
  });

  it("a text-direction control, a misspelt field or a number is refused (422, named), and the step stays to be answered", async () => {
    const trainer = await createTrainer(database.db);
    const cases: [unknown, string][] = [
      [{ organisation_name: "\u202Eevil" }, "nor text-direction controls"],
      [{ your_name: "Ada\u2066x" }, "nor text-direction controls"],
      [{ name: "Ada" }, "Unknown field name: this body takes your_name and organisation_name."],
      [{ your_name: 42 }, "Must be text (a string)."],
    ];
    for (const [body, message] of cases) {
      const refused = await answer(trainer, body as never);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(refused.body)).toContain(message);
    }
    expect((await welcomeState(database.db, trainer.workspaceId)).show).toBe(true);
  });
});
