import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { catalogCertificationId } from "@/db/seed";
import { domains, emailMessages } from "@/db/schema";
import { createClass } from "@/lib/certification/classes/classes";
import { createClassInput } from "@/lib/certification/classes/schemas";
import { claimDueEmails, deliverEmails } from "@/lib/platform/pipeline/channels/email/deliver";
import { createTest } from "@/lib/certification/tests/tests";
import { setPlan } from "@/lib/platform/workspaces";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { startFakeResend, type FakeResend } from "../../helpers/fake-resend";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { newWebhookSecret, postWebhook, resendEvent, svixSign } from "../../helpers/resend-events";
import { createTestInput } from "@/lib/certification/tests/schemas";

/**
 * The whole path: invitations sent through the real sender and the Resend SDK to the local
 * fake, which hands out the provider ids; Resend's signed events name those ids.
 */

const webhookRoute = await import("@/app/api/webhooks/resend/route");
const apiTestRoute = await import("@/app/api/v1/tests/[code]/route");
const apiClassRoute = await import("@/app/api/v1/classes/[id]/route");

const secret = newWebhookSecret();
let database: TestDatabase;
let fake: FakeResend;
let trainer: Trainer;
let certificationId: number;

beforeAll(async () => {
  fake = await startFakeResend();
  vi.stubEnv("RESEND_API_KEY", "re_test");
  vi.stubEnv("RESEND_BASE_URL", fake.url);
  vi.stubEnv("RESEND_WEBHOOK_SECRET", secret);
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  await setPlan(database.db, trainer.workspaceId, "pro");
  certificationId = (await catalogCertificationId(database.db, "aws-clf-c02"))!;
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await database.drop();
  await fake.close();
});

/** Sends everything due, as the worker would. */
async function sendDue() {
  const ids = await claimDueEmails(database.db, 100);
  await deliverEmails(database.db, ids);
}

async function signed(type: string, providerId: string, extra: Parameters<typeof resendEvent>[2] = {}) {
  const body = resendEvent(type, providerId, extra);
  const result = await postWebhook(webhookRoute.POST, body, svixSign(secret, body));
  expect(result.status).toBe(200);
  return result.body.outcome as string;
}

describe("Resend events for mail sent through the real sender", () => {
  it("a bounce of a test invitation and the delivery of a class invitation reach the trainer's views", async () => {
    const [domain] = await database.db.select({ id: domains.id }).from(domains).where(eq(domains.certificationId, certificationId));
    const test = await createTest(database.db, trainer.workspaceId, createTestInput.parse({
      certification_id: certificationId,
      send_email: true,
      domains: [domain.id],
      questions: 1,
      recipients: [
        { email: "nobody@example.com", name: "Nobody" },
        { email: "somebody@example.com", name: "Somebody" },
      ],
    }));
    const klass = await createClass(database.db, trainer.workspaceId, createClassInput.parse({ name: "Through Resend", certification_id: certificationId, emails: ["pupil@example.com"] }));
    await sendDue();

    const rows = await database.db.select().from(emailMessages);
    expect(rows.every((row) => row.status === "sent" && row.providerId)).toBe(true);
    const nobody = test.recipients.find((r) => r.email === "nobody@example.com")!;
    const invitation = klass.invitations[0];
    const nobodyMail = rows.find((row) => row.recipientId === nobody.id)!;
    const invitationMail = rows.find((row) => row.invitationId === invitation.id)!;
    // The ids the provider handed out are the ones stored.
    expect(fake.sent.map((m) => m.id)).toEqual(expect.arrayContaining([nobodyMail.providerId, invitationMail.providerId]));

    expect(await signed("email.sent", nobodyMail.providerId!)).toBe("unchanged");
    expect(await signed("email.bounced", nobodyMail.providerId!, { bounce: { type: "Permanent", subType: "Suppressed", message: "The address is on the suppression list." } })).toBe("updated");
    expect(await signed("email.delivered", invitationMail.providerId!)).toBe("updated");

    const shownTest = await call(apiTestRoute.GET, `/api/v1/tests/${test.code}`, { key: trainer.secret, params: { code: test.code } });
    const views = Object.fromEntries(shownTest.body.recipients.map((r: { email: string; email_delivery: unknown }) => [r.email, r.email_delivery]));
    expect(views["nobody@example.com"]).toMatchObject({ status: "bounced", detail: "Permanent bounce (Suppressed): The address is on the suppression list." });
    expect(views["somebody@example.com"]).toMatchObject({ status: "sent", detail: null, updated_at: expect.any(String) });

    const shownClass = await call(apiClassRoute.GET, `/api/v1/classes/${klass.id}`, { key: trainer.secret, params: { id: String(klass.id) } });
    expect(shownClass.body.invitations[0].email_delivery.status).toBe("delivered");
  });
});
