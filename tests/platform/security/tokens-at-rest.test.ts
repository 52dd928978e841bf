import { and, eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { emailMessages, members, sessions, users, webhookEndpoints } from "@/db/schema";
import { databaseAdapter } from "@/lib/platform/auth/adapter";
import { createClass } from "@/lib/certification/classes/classes";
import { createClassInput } from "@/lib/certification/classes/schemas";
import { acceptInvitation, inviteMember } from "@/lib/ctf/competitions/members";
import { joinAsPlayer } from "@/lib/ctf/play/players";
import { invitationPreview } from "@/lib/ctf/play/public";
import { claimDueEmails, deliverEmails } from "@/lib/platform/pipeline/channels/email/deliver";
import { seal } from "@/lib/platform/security/sealing";
import { hashToken } from "@/lib/platform/security/tokens";
import { studentArea } from "@/lib/certification/students/area";
import { openTest } from "@/lib/certification/taking/taking";
import { messageOf, startDueAttempts } from "@/lib/platform/pipeline/channels/webhook/attempts";
import { createTestResultWebhook } from "@/lib/platform/webhooks/endpoints";
import { hmacHex } from "@/lib/platform/pipeline/channels/webhook/format";
import { setPlan } from "@/lib/platform/workspaces";
import * as testsRoute from "@/app/api/v1/tests/route";
import * as testRoute from "@/app/api/v1/tests/[code]/route";
import * as webhooksRoute from "@/app/api/v1/webhooks/route";
import * as ctfsRoute from "@/app/api/v1/ctfs/route";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { startFakeResend, type FakeResend } from "../../helpers/fake-resend";
import { catalogCertification, createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { tokenOf } from "../../helpers/taking";
import { everyTextValue, type StoredValue } from "../../helpers/text-dump";
import { sendTestEvent } from "@/lib/platform/webhooks/deliveries";
import { findInvitation, resendInvitation } from "@/lib/certification/classes/invitations";

/**
 * What a read-only copy of the database hands over (issue 21): after a whole journey — a
 * trainer signed in with a magic link, a test sent, a class invited, a competition member
 * invited and joined, webhooks registered, every e-mail accepted by (a stand-in for) Resend —
 * no column of any table holds a live personal token, session token, sign-in link, webhook
 * secret or API key. And what the API showed before, it still shows: the personal links.
 */

const APP = "http://localhost:3000";

let database: TestDatabase;
let fake: FakeResend;
let trainer: Trainer;
/** Every live secret the journey produced, by what it is: none may be found in the database. */
const secrets = new Map<string, string>();
const LIVE_SECRETS = [
  "API key",
  "sign-in link token",
  "session token",
  "recipient link of ada@example.test",
  "recipient link of bob@example.test",
  "class invitation token",
  "member token",
  "player cookie token",
  "competition webhook secret",
  "supplied webhook secret",
  "test-result webhook secret",
];

beforeAll(async () => {
  fake = await startFakeResend({ ratePerSecond: Infinity });
  vi.stubEnv("RESEND_API_KEY", "re_test");
  vi.stubEnv("RESEND_BASE_URL", fake.url);
  vi.stubEnv("EMAIL_RATE_PER_SECOND", "100");
  vi.stubEnv("AUTH_URL", APP);
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  await setPlan(database.db, trainer.workspaceId, "pro");
  secrets.set("API key", trainer.secret);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await database?.drop();
  await fake?.close();
});

/** Sends every queued e-mail through the stand-in Resend; none stays queued. */
async function deliverAll(): Promise<void> {
  for (let claimed = await claimDueEmails(database.db, 100); claimed.length; claimed = await claimDueEmails(database.db, 100)) {
    await deliverEmails(database.db, claimed);
  }
  expect(await database.db.select({ id: emailMessages.id }).from(emailMessages).where(eq(emailMessages.status, "queued"))).toEqual([]);
}

/** The links of the e-mails Resend accepted for `address`, oldest first. */
function linksTo(address: string): string[] {
  const bodies = fake.calls.filter((c) => c.ids.length > 0).flatMap((c) => (Array.isArray(c.body) ? c.body : [c.body]));
  return bodies
    .filter((mail: { to: string | string[] }) => [mail.to].flat().includes(address))
    .flatMap((mail: { text: string }) => mail.text.match(/http:\/\/localhost:3000\/[^\s"<>)\]]+/g) ?? []);
}

const cookiesOf = (response: Response) => response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]);

/** The magic-link sign-in through Auth.js itself: the form, the e-mail, the link. Returns the session cookie's token. */
async function signInWithMagicLink(email: string): Promise<string> {
  const { handlers } = await import("@/lib/platform/auth/auth");
  const csrf = await handlers.GET(new NextRequest(`${APP}/api/auth/csrf`));
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = cookiesOf(csrf).join("; ");
  const form = await handlers.POST(
    new NextRequest(`${APP}/api/auth/signin/resend`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, csrfToken, callbackUrl: `${APP}/tests` }).toString(),
    }),
  );
  // "Check your e-mail" (Auth.js's verify-request step), not an error page.
  expect(form.status).toBe(302);
  expect(form.headers.get("location")).toMatch(/verify-request|\/signin\/check/);
  await deliverAll();
  const link = linksTo(email).find((candidate) => candidate.includes("/api/auth/callback/resend"));
  expect(link, "the sign-in e-mail's link").toBeDefined();
  secrets.set("sign-in link token", new URL(link!).searchParams.get("token")!);
  const callback = await handlers.GET(new NextRequest(link!, { headers: { cookie } }));
  const session = cookiesOf(callback).find((c) => c.startsWith("authjs.session-token="));
  expect(session, "the session cookie").toBeDefined();
  const token = decodeURIComponent(session!.slice("authjs.session-token=".length));
  // Signed in: the session is found through the cookie (its hash is what the row keeps).
  const read = await handlers.GET(new NextRequest(`${APP}/api/auth/session`, { headers: { cookie: `authjs.session-token=${token}` } }));
  expect(((await read.json()) as { user?: { email?: string } }).user?.email).toBe(email);
  return token;
}

describe("a copy of the database after a whole journey", () => {
  let code: string;
  let createdLinks: Record<string, string>;

  it("a trainer signs in by magic link: the session row keeps the cookie token's SHA-256", async () => {
    const email = "signed-in-trainer@example.test";
    const token = await signInWithMagicLink(email);
    secrets.set("session token", token);
    const [user] = await database.db.select().from(users).where(eq(users.email, email));
    const rows = await database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows.map((row) => row.sessionToken)).toEqual([hashToken(token)]);
  });

  it("a test is sent: the API answers each recipient's personal link, as before, and again on reading the test", async () => {
    const { certificationId, domainIds } = await catalogCertification(database.db);
    const people = ["ada@example.test", "bob@example.test"];
    const made = await call(testsRoute.POST, "/api/v1/tests", {
      method: "POST",
      key: trainer.secret,
      body: { certification_id: certificationId, domains: domainIds.slice(0, 2), questions: 2, recipients: people.map((email) => ({ email })), send_email: true },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    code = made.body.code;
    createdLinks = Object.fromEntries(made.body.recipients.map((r: { email: string; link: string }) => [r.email, r.link]));
    for (const email of people) {
      expect(createdLinks[email]).toMatch(/^http:\/\/localhost:3000\/t\/[A-Za-z0-9_-]{32}$/);
      secrets.set(`recipient link of ${email}`, tokenOf(createdLinks[email]));
    }
    const read = await call(testRoute.GET, `/api/v1/tests/${code}`, { key: trainer.secret, params: { code } });
    expect(Object.fromEntries(read.body.recipients.map((r: { email: string; link: string }) => [r.email, r.link]))).toEqual(createdLinks);
    // The link opens the test; the e-mail carried the same link.
    expect((await openTest(database.db, tokenOf(createdLinks["ada@example.test"])))?.email).toBe("ada@example.test");
    await deliverAll();
    expect(linksTo("ada@example.test")).toContain(createdLinks["ada@example.test"]);
    // The student area shows the student their own link too.
    const area = await studentArea(database.db, { id: "nobody", email: "bob@example.test" });
    expect(area.tests.map((t) => [t.link, t.path])).toEqual([[createdLinks["bob@example.test"], `/t/${tokenOf(createdLinks["bob@example.test"])}`]]);
  });

  it("a class is invited, and an invitation sent again carries the same link", async () => {
    const { certificationId } = await catalogCertification(database.db);
    const klass = await createClass(database.db, trainer.workspaceId, createClassInput.parse({ name: "Evening", certification_id: certificationId, emails: ["cleo@example.test"] }));
    await deliverAll();
    const [link] = linksTo("cleo@example.test");
    expect(link).toMatch(/\/join\/[A-Za-z0-9_-]{32}$/);
    const token = link.split("/join/")[1];
    secrets.set("class invitation token", token);
    expect((await findInvitation(database.db, token))?.invitation.email).toBe("cleo@example.test");
    await resendInvitation(database.db, trainer.workspaceId, klass.id, klass.invitations[0].id);
    await deliverAll();
    expect(linksTo("cleo@example.test")).toEqual([link, link]);
  });

  it("a competition member is invited (twice: the same link) and joins as a player", async () => {
    const ctf = await call(ctfsRoute.POST, "/api/v1/ctfs", {
      method: "POST",
      key: trainer.secret,
      body: { title: "Spring", starts_at: new Date(Date.now() + 3_600_000).toISOString(), ends_at: new Date(Date.now() + 7_200_000).toISOString() },
    });
    expect(ctf.status, JSON.stringify(ctf.body)).toBe(201);
    const member = await inviteMember(database.db, trainer.workspaceId, ctf.body.id, { email: "dan@example.test" });
    await inviteMember(database.db, trainer.workspaceId, ctf.body.id, { email: "dan@example.test" });
    await deliverAll();
    const links = linksTo("dan@example.test");
    expect(links).toHaveLength(2);
    expect(links[1]).toBe(links[0]);
    const token = links[0].split("/c/join/")[1];
    secrets.set("member token", token);
    expect((await invitationPreview(database.db, token))?.email).toBe("dan@example.test");
    expect((await acceptInvitation(database.db, token)).member.status).toBe("joined");
    const player = await joinAsPlayer(database.db, token, { name: "dan" });
    secrets.set("player cookie token", player.sessionToken);
    const [row] = await database.db.select().from(members).where(and(eq(members.id, member.id)));
    expect(row.tokenHash).toBe(hashToken(token));
  });

  it("webhook secrets are shown once and sign deliveries, opened from their sealed copy", async () => {
    const competition = await call(webhooksRoute.POST, "/api/v1/webhooks", { method: "POST", key: trainer.secret, body: { url: "http://127.0.0.1:9/competition", events: [] } });
    expect(competition.status, JSON.stringify(competition.body)).toBe(201);
    expect(competition.body.secret).toMatch(/^whsec_/);
    secrets.set("competition webhook secret", competition.body.secret);
    const chosen = `chosen-secret-${"c".repeat(20)}`;
    const supplied = await call(webhooksRoute.POST, "/api/v1/webhooks", { method: "POST", key: trainer.secret, body: { url: "http://127.0.0.1:9/chosen", events: [], secret: chosen } });
    expect(supplied.status).toBe(201);
    expect(supplied.body.secret).toBeUndefined();
    secrets.set("supplied webhook secret", chosen);
    const testResults = await createTestResultWebhook(database.db, trainer.workspaceId, { url: "http://127.0.0.1:9/results" });
    secrets.set("test-result webhook secret", testResults.secret);
    // No answer shows a secret again.
    const listed = await call(webhooksRoute.GET, "/api/v1/webhooks", { key: trainer.secret });
    expect(JSON.stringify(listed.body)).not.toMatch(/whsec_|chosen-secret/);

    for (const [endpointId, secret] of [
      [competition.body.id, competition.body.secret],
      [supplied.body.id, chosen],
      [testResults.id, testResults.secret],
    ]) {
      await sendTestEvent(database.db, trainer.workspaceId, endpointId);
      const { started } = await startDueAttempts(database.db, { limit: 10, perEndpoint: 10 });
      expect(started.map((attempt) => attempt.endpointId)).toEqual([endpointId]);
      const message = messageOf(started[0], new Date());
      const signature = message.headers["X-Webhook-Signature"] ?? message.headers["X-Service-Signature"]?.replace(/^sha256=/, "");
      expect(signature).toBe(hmacHex(secret, message.body));
    }
  });

  describe("no text of any table holds", () => {
    let values: StoredValue[];
    beforeAll(async () => {
      values = await everyTextValue(database);
    });

    it("(the copy is the whole database, the journey's rows included)", () => {
      expect([...secrets.keys()].sort()).toEqual([...LIVE_SECRETS].sort());
      expect(values.filter(({ table }) => table === "recipients").length).toBeGreaterThan(0);
      expect(values.some(({ value }) => value.includes("dan@example.test"))).toBe(true);
    });

    it.each(LIVE_SECRETS)("the %s", (what) => {
      const secret = secrets.get(what)!;
      expect(secret.length).toBeGreaterThan(15);
      expect(values.filter(({ value }) => value.includes(secret)).map(({ table, column }) => `${table}.${column}`)).toEqual([]);
    });
  });

  it("an endpoint whose secret was sealed under a key no longer configured fails its own attempts only", async () => {
    const good = await createTestResultWebhook(database.db, trainer.workspaceId, { url: "http://127.0.0.1:9/good" });
    const lost = await createTestResultWebhook(database.db, trainer.workspaceId, { url: "http://127.0.0.1:9/lost" });
    vi.stubEnv("DATA_ENCRYPTION_KEYS", `a-key-since-removed-${"x".repeat(40)}`);
    const sealedUnderRemovedKey = seal("webhook_endpoints.secret", lost.secret);
    vi.stubEnv("DATA_ENCRYPTION_KEYS", "");
    await database.db.update(webhookEndpoints).set({ secretSealed: sealedUnderRemovedKey }).where(eq(webhookEndpoints.id, lost.id));
    await sendTestEvent(database.db, trainer.workspaceId, good.id);
    await sendTestEvent(database.db, trainer.workspaceId, lost.id);
    const { started } = await startDueAttempts(database.db, { limit: 10, perEndpoint: 10 });
    const byEndpoint = new Map(started.map((attempt) => [attempt.endpointId, attempt]));
    expect([...byEndpoint.keys()].sort()).toEqual([good.id, lost.id].sort());
    const message = messageOf(byEndpoint.get(good.id)!, new Date());
    expect(message.headers["X-Webhook-Signature"]).toBe(hmacHex(good.secret, message.body));
    expect(() => messageOf(byEndpoint.get(lost.id)!, new Date())).toThrow(/sealed under key .* not configured/);
  });

  it("the hashed sessions keep Auth.js's contract: update and sign-out by the cookie's token", async () => {
    const adapter = databaseAdapter(database.db);
    const [user] = await database.db.select().from(users).where(eq(users.email, "signed-in-trainer@example.test"));
    const token = "a-browser-cookie-token";
    const created = await adapter.createSession!({ sessionToken: token, userId: user.id, expires: new Date(Date.now() + 60_000) });
    expect(created.sessionToken).toBe(token);
    const later = new Date(Date.now() + 120_000);
    expect((await adapter.updateSession!({ sessionToken: token, expires: later }))?.sessionToken).toBe(token);
    const [row] = await database.db.select().from(sessions).where(eq(sessions.sessionToken, hashToken(token)));
    expect(row.expires.getTime()).toBe(later.getTime());
    expect(await adapter.getSessionAndUser!(hashToken(token))).toBeNull();
    await adapter.deleteSession!(token);
    expect(await adapter.getSessionAndUser!(token)).toBeNull();
    expect(await database.db.select().from(sessions).where(eq(sessions.sessionToken, hashToken(token)))).toEqual([]);
  });
});
