import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { catalogCertificationId } from "@/db/seed";
import { domains, emailMessages } from "@/db/schema";
import { openApiDocument } from "@/lib/registry/openapi-document";
import { createClass } from "@/lib/certification/classes/classes";
import { createClassInput } from "@/lib/certification/classes/schemas";
import { createTest, resendRecipient } from "@/lib/certification/tests/tests";
import { setPlan } from "@/lib/platform/workspaces";
import { createTestDatabase, onPostgres, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { signInAs } from "../../helpers/session";
import { acceptByProvider, deliverySnapshot, newWebhookSecret, postWebhook, resendEvent, svixSign } from "../../helpers/resend-events";
import { createTestInput } from "@/lib/certification/tests/schemas";

// The dashboard routes read the session: the trainer signed in with signInAs.
vi.mock("@/lib/platform/auth/session", () => import("../../helpers/session"));

const webhookRoute = await import("@/app/api/webhooks/resend/route");
const apiTestRoute = await import("@/app/api/v1/tests/[code]/route");
const apiClassRoute = await import("@/app/api/v1/classes/[id]/route");

const secret = newWebhookSecret();
let database: TestDatabase;
let trainer: Trainer;
let certificationId: number;
let domainIds: number[];

beforeAll(async () => {
  vi.stubEnv("RESEND_WEBHOOK_SECRET", secret);
  vi.stubEnv("RESEND_API_KEY", "");
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  await setPlan(database.db, trainer.workspaceId, "pro");
  signInAs(trainer);
  certificationId = (await catalogCertificationId(database.db, "aws-clf-c02"))!;
  domainIds = (await database.db.select({ id: domains.id }).from(domains).where(eq(domains.certificationId, certificationId))).map((d) => d.id);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await database.drop();
});

let counter = 0;
/** A test sent (e-mailed) to the given addresses; returns its code and recipients by address. */
async function sendTest(...emails: string[]) {
  counter += 1;
  const test = await createTest(database.db, trainer.workspaceId, createTestInput.parse({
    certification_id: certificationId,
    send_email: true,
    domains: domainIds.slice(0, 1),
    questions: 1,
    recipients: emails.map((email) => ({ email: email.replace("@", `+${counter}@`), name: "" })),
  }));
  const byEmail = (email: string) => test.recipients.find((r) => r.email === email.replace("@", `+${counter}@`))!;
  return { code: test.code, recipient: byEmail };
}

async function readRecipient(code: string, id: number) {
  const result = await call(apiTestRoute.GET, `/api/v1/tests/${code}`, { key: trainer.secret, params: { code } });
  expect(result.status).toBe(200);
  return result.body.recipients.find((r: { id: number }) => r.id === id);
}

async function deliver(type: string, providerId: string, extra: Parameters<typeof resendEvent>[2] = {}, sign: Parameters<typeof svixSign>[2] = {}) {
  const body = resendEvent(type, providerId, extra);
  return postWebhook(webhookRoute.POST, body, svixSign(secret, body, sign));
}

const bounce = { type: "Permanent", subType: "General", message: "The recipient's mailbox does not exist (550 5.1.1 user unknown)." };

describe("POST /api/webhooks/resend → the e-mail status of recipients and invited students", () => {
  it("a signed email.bounced shows on the recipient in GET /tests/{code}, with its reason; the other recipient is untouched", async () => {
    const { code, recipient } = await sendTest("gone@example.com", "fine@example.com");
    const gone = recipient("gone@example.com");
    const fine = recipient("fine@example.com");
    // Queued in the outbox with the test: linked to its recipient.
    expect(gone.email_delivery).toMatchObject({ status: "queued", detail: null });
    const goneId = await acceptByProvider(database.db, { recipientId: gone.id });
    await acceptByProvider(database.db, { recipientId: fine.id });
    expect((await readRecipient(code, gone.id)).email_delivery.status).toBe("sent");

    const bouncedAt = new Date(Date.now() - 1000);
    const result = await deliver("email.bounced", goneId, { createdAt: bouncedAt, bounce });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ received: true, outcome: "updated" });

    const shown = await readRecipient(code, gone.id);
    expect(shown.email_delivery).toEqual({
      status: "bounced",
      detail: `Permanent bounce (General): ${bounce.message}`,
      updated_at: bouncedAt.toISOString(),
    });
    // The specification's fields are as they were.
    expect(shown).toMatchObject({ id: gone.id, email: gone.email, status: "sent" });
    expect((await readRecipient(code, fine.id)).email_delivery.status).toBe("sent");
    // The dashboard (the same route, with its session) sees the same view.
    const dashboard = await call(apiTestRoute.GET, `/api/v1/tests/${code}`, { params: { code } });
    expect(dashboard.body.recipients.find((r: { id: number }) => r.id === gone.id).email_delivery.status).toBe("bounced");
  });

  it("a signed email.delivered for a class invitation shows in GET /classes/{id} (API and dashboard)", async () => {
    const klass = await createClass(database.db, trainer.workspaceId, createClassInput.parse({ name: "Webhook class", certification_id: certificationId, emails: ["student@example.com", "other@example.com"] }));
    const invitation = klass.invitations.find((i) => i.email === "student@example.com")!;
    expect(invitation.email_delivery.status).toBe("queued");
    const providerId = await acceptByProvider(database.db, { invitationId: invitation.id });

    const result = await deliver("email.delivered", providerId);
    expect(result.body.outcome).toBe("updated");

    const api = await call(apiClassRoute.GET, `/api/v1/classes/${klass.id}`, { key: trainer.secret, params: { id: String(klass.id) } });
    expect(api.status).toBe(200);
    const shown = api.body.invitations.find((i: { id: number }) => i.id === invitation.id);
    expect(shown.email_delivery).toMatchObject({ status: "delivered", detail: null });
    expect(api.body.invitations.find((i: { email: string }) => i.email === "other@example.com").email_delivery.status).toBe("queued");
    const dashboard = await call(apiClassRoute.GET, `/api/v1/classes/${klass.id}`, { params: { id: String(klass.id) } });
    expect(dashboard.body.invitations.find((i: { id: number }) => i.id === invitation.id).email_delivery.status).toBe("delivered");
  });

  it("a forged signature → 401 in the error shape, and nothing changes", async () => {
    const { recipient } = await sendTest("forged@example.com");
    const providerId = await acceptByProvider(database.db, { recipientId: recipient("forged@example.com").id });
    const before = await deliverySnapshot(database.db);
    const body = resendEvent("email.bounced", providerId, { bounce });

    const attempts: Record<string, string>[] = [
      svixSign(newWebhookSecret(), body), // another secret
      { ...svixSign(secret, body), "svix-signature": "v1,AAAA" }, // a made-up signature
      { ...svixSign(secret, body), "svix-signature": svixSign(secret, body)["svix-signature"].replace("v1,", "v2,") }, // unknown version
      svixSign(secret, body.replace("Permanent", "Transient")), // signed for other bytes
      { "svix-timestamp": String(Math.floor(Date.now() / 1000)) }, // no signature at all
    ];
    for (const headers of attempts) {
      const result = await postWebhook(webhookRoute.POST, body, headers);
      expect(result.status).toBe(401);
      expect(result.body.error).toMatchObject({ code: "unauthorized", message: expect.any(String), request_id: expect.stringMatching(/^req_/) });
    }
    expect(await deliverySnapshot(database.db)).toBe(before);
  });

  it("a stale (or far-future) timestamp → 401, though correctly signed", async () => {
    const { recipient } = await sendTest("stale@example.com");
    const providerId = await acceptByProvider(database.db, { recipientId: recipient("stale@example.com").id });
    const before = await deliverySnapshot(database.db);
    const now = Math.floor(Date.now() / 1000);
    for (const timestamp of [now - 10 * 60, now + 10 * 60]) {
      const result = await deliver("email.bounced", providerId, { bounce }, { timestamp });
      expect(result.status).toBe(401);
      expect(result.body.error.message).toMatch(/timestamp/);
    }
    expect(await deliverySnapshot(database.db)).toBe(before);
  });

  it("the same event twice (a Svix retry) changes the message once", async () => {
    const { code, recipient } = await sendTest("twice@example.com");
    const id = recipient("twice@example.com").id;
    const providerId = await acceptByProvider(database.db, { recipientId: id });
    const body = resendEvent("email.delivery_delayed", providerId);
    const headers = svixSign(secret, body);

    const first = await postWebhook(webhookRoute.POST, body, headers);
    const afterFirst = await deliverySnapshot(database.db);
    const second = await postWebhook(webhookRoute.POST, body, headers);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect([first.body.outcome, second.body.outcome]).toEqual(["updated", "unchanged"]);
    expect(await deliverySnapshot(database.db)).toBe(afterFirst);
    expect((await readRecipient(code, id)).email_delivery.status).toBe("delivery_delayed");
  });

  it("an unknown email_id → 200 and nothing changes; an untracked event type → 200, ignored", async () => {
    const before = await deliverySnapshot(database.db);
    const unknown = await deliver("email.bounced", "4ef9a417-02e9-4d39-ad75-9611e0fcc33c", { bounce });
    expect(unknown.status).toBe(200);
    expect(unknown.body.outcome).toBe("unknown_message");
    const opened = await deliver("email.opened", "4ef9a417-02e9-4d39-ad75-9611e0fcc33c");
    expect(opened.body.outcome).toBe("ignored");
    const other = await postWebhook(webhookRoute.POST, '{"type":"domain.updated","data":{"id":"d"}}', svixSign(secret, '{"type":"domain.updated","data":{"id":"d"}}'));
    expect(other.body).toEqual({ received: true, outcome: "ignored" });
    expect(await deliverySnapshot(database.db)).toBe(before);
  });

  it("delivered arriving after bounced keeps bounced; delayed after delivered keeps delivered", async () => {
    const { code, recipient } = await sendTest("late@example.com", "delayed@example.com");
    const late = recipient("late@example.com").id;
    const lateId = await acceptByProvider(database.db, { recipientId: late });
    const t0 = Date.now() - 60_000;
    // Out of order: the bounce (later) arrives first, then the delivery (earlier), then a delivery stamped even later.
    expect((await deliver("email.bounced", lateId, { createdAt: new Date(t0 + 2000), bounce })).body.outcome).toBe("updated");
    expect((await deliver("email.delivered", lateId, { createdAt: new Date(t0 + 1000) })).body.outcome).toBe("unchanged");
    expect((await deliver("email.delivered", lateId, { createdAt: new Date(t0 + 3000) })).body.outcome).toBe("unchanged");
    const shown = (await readRecipient(code, late)).email_delivery;
    expect(shown.status).toBe("bounced");
    expect(shown.detail).toContain("user unknown");
    expect(shown.updated_at).toBe(new Date(t0 + 2000).toISOString());

    const delayed = recipient("delayed@example.com").id;
    const delayedId = await acceptByProvider(database.db, { recipientId: delayed });
    await deliver("email.delivery_delayed", delayedId, { createdAt: new Date(t0) });
    await deliver("email.delivered", delayedId, { createdAt: new Date(t0 + 1000) });
    await deliver("email.delivery_delayed", delayedId, { createdAt: new Date(t0 + 2000) });
    expect((await readRecipient(code, delayed)).email_delivery.status).toBe("delivered");
  });

  it("events racing on one message end in the highest-ranked one", async () => {
    const { code, recipient } = await sendTest("race@example.com");
    const id = recipient("race@example.com").id;
    const providerId = await acceptByProvider(database.db, { recipientId: id });
    const types = ["email.delivered", "email.delivery_delayed", "email.bounced", "email.complained", "email.delivered", "email.bounced"];
    const results = await Promise.all(types.map((type) => deliver(type, providerId, { bounce })));
    expect(results.map((r) => r.status)).toEqual(types.map(() => 200));
    expect((await readRecipient(code, id)).email_delivery.status).toBe("bounced");
    if (onPostgres) expect(results.filter((r) => r.body.outcome === "updated").length).toBeGreaterThanOrEqual(1);
  });

  it("the latest e-mail counts: a re-send after a bounce shows queued again; a refused one shows failed with its reason", async () => {
    const { code, recipient } = await sendTest("again@example.com");
    const id = recipient("again@example.com").id;
    const providerId = await acceptByProvider(database.db, { recipientId: id });
    await deliver("email.bounced", providerId, { bounce });
    expect((await readRecipient(code, id)).email_delivery.status).toBe("bounced");

    const resent = await resendRecipient(database.db, trainer.workspaceId, code, id);
    expect(resent.email_delivery.status).toBe("queued");
    expect((await readRecipient(code, id)).email_delivery.status).toBe("queued");

    // The sender's permanent refusal (status failed, reason in last_error) is shown as it is.
    await database.db
      .update(emailMessages)
      .set({ status: "failed", lastError: "422 invalid_to_address: Invalid `to` field." })
      .where(and(eq(emailMessages.recipientId, id), eq(emailMessages.status, "queued")));
    expect((await readRecipient(code, id)).email_delivery).toEqual({ status: "failed", detail: "422 invalid_to_address: Invalid `to` field.", updated_at: null });
  });

  it("send_email: false → not_sent", async () => {
    const test = await createTest(database.db, trainer.workspaceId, createTestInput.parse({
      certification_id: certificationId,
      domains: domainIds.slice(0, 1),
      questions: 1,
      recipients: [{ email: "links-only@example.com", name: "" }],
      send_email: false,
    }));
    expect(test.recipients[0].email_delivery).toEqual({ status: "not_sent", detail: null, updated_at: null });
  });

  it("a signed body that is not an e-mail event is refused without a 5xx", async () => {
    for (const body of ["not json", "{}", '{"type":"email.bounced","data":{}}', '{"type":"email.bounced","data":{"email_id":"a\\u0000b"}}']) {
      const result = await postWebhook(webhookRoute.POST, body, svixSign(secret, body));
      expect(result.status, body).toBeGreaterThanOrEqual(400);
      expect(result.status, body).toBeLessThan(500);
      expect(result.body.error.request_id).toMatch(/^req_/);
    }
  });

  it("without RESEND_WEBHOOK_SECRET the route does not exist (404), even for a signed request", async () => {
    const body = resendEvent("email.delivered", "x");
    const headers = svixSign(secret, body);
    vi.stubEnv("RESEND_WEBHOOK_SECRET", "");
    try {
      const result = await postWebhook(webhookRoute.POST, body, headers);
      expect(result.status).toBe(404);
      expect(result.body.error.code).toBe("not_found");
    } finally {
      vi.stubEnv("RESEND_WEBHOOK_SECRET", secret);
    }
  });

  it("the OpenAPI document shows the email_delivery object on recipients and invitations", () => {
    const doc = openApiDocument() as any;
    const schemas = doc.components.schemas;
    expect(schemas.EmailDelivery.properties.status.enum).toEqual(
      expect.arrayContaining(["not_sent", "queued", "sent", "delivered", "delivery_delayed", "bounced", "complained", "failed", "dropped"]),
    );
    expect(schemas.Recipient.properties.email_delivery).toEqual({ $ref: "#/components/schemas/EmailDelivery" });
    expect(schemas.Recipient.properties.email.type).toBe("string");
    const invitation = schemas.Class.properties.invitations.items;
    expect(JSON.stringify(invitation)).toContain("#/components/schemas/EmailDelivery");
  });
});
