import { expect, test } from "@playwright/test";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { startAppInstance, type AppInstance } from "./app-instance";
import { expectSignedIn, keepScreenshot, signIn, uniqueEmail } from "./helpers";
import { freePort } from "../tests/helpers/ports";
import { privatePostgresUnsupported, startPrivatePostgres, type PrivatePostgres } from "../tests/helpers/private-postgres";
import { startReceiver } from "./receiver";
import { UNAVAILABLE_DIGEST } from "../lib/kernel/unavailable";

/**
 * A database outage under load (DESIGN.md, "Failure behaviour"): an instance of the built
 * app of its own, on a PostgreSQL cluster of its own, which this test stops for 10 s while
 * a bounded loop of concurrent requests runs. Every request is answered within about 2 s
 * (asserted < 3 s), the API with 503 JSON, pages with the "temporarily unavailable" page; a
 * signed-in trainer stays signed in, and the unavailable page in the browser turns back into
 * the trainer's page by itself; the app serves again within seconds of the database's
 * return, without a restart; outbox rows committed before the outage are delivered after.
 *
 * It runs in the PostgreSQL e2e run only (it needs no shared database, but one run is
 * enough), and only where the machine's PostgreSQL binaries can be run as `postgres`.
 */
const unsupported = process.env.DATABASE_URL ? privatePostgresUnsupported() : "runs in the PostgreSQL e2e run only (DATABASE_URL is unset)";
test.skip(Boolean(unsupported), unsupported);
test.describe.configure({ timeout: 120_000 });

const OUTAGE_MS = 10_000;
const BOUND_MS = 3_000;

type Kind = "api" | "app-api" | "dashboard" | "recipient";
type Hit = { kind: Kind; start: number; end: number; status: number; location: string | null; body: string };

let cluster: PrivatePostgres | undefined;
let app: AppInstance | undefined;

test.beforeAll(async () => {
  cluster = await startPrivatePostgres();
  app = await startAppInstance(await freePort(), {
    DATABASE_URL: cluster.url,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    WORKER_POLL_MS: "500",
  });
});

test.afterAll(async () => {
  await app?.stop();
  cluster?.destroy();
});

test("a database outage: answers within 3 s (API 503, the unavailable page), the session survives, the app recovers by itself, the outbox is delivered", async ({ browser }, testInfo) => {
  const base = app!.baseUrl;
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  const receiver = await startReceiver();
  const sql = postgres(cluster!.url, { max: 1, onnotice: () => {} });
  try {
    // A signed-in trainer, an API key, a webhook endpoint at a real local receiver.
    const email = uniqueEmail("outage");
    await signIn(page, email);
    const cookie = (await context.cookies(base)).map((c) => `${c.name}=${c.value}`).join("; ");
    const sameOrigin = { "content-type": "application/json", origin: base, cookie };
    const keyResponse = await fetch(`${base}/api/app/keys`, { method: "POST", headers: sameOrigin, body: JSON.stringify({ name: "outage" }) });
    expect(keyResponse.status).toBe(201);
    const { secret: apiKey } = (await keyResponse.json()) as { secret: string };
    // A test-result endpoint: the test.completed queued below is of its kind.
    const hookResponse = await fetch(`${base}/api/app/test-result-webhooks`, { method: "POST", headers: sameOrigin, body: JSON.stringify({ url: receiver.url }) });
    expect(hookResponse.status).toBe(201);
    const { id: endpointId } = (await hookResponse.json()) as { id: string };
    const recipientPath = `/t/${randomBytes(24).toString("base64url")}`;

    const targets: Record<Kind, { path: string; headers: Record<string, string> }> = {
      api: { path: "/api/v1/certifications", headers: { "x-api-key": apiKey } },
      "app-api": { path: "/api/v1/webhooks", headers: { cookie } },
      dashboard: { path: "/tests", headers: { cookie } },
      recipient: { path: recipientPath, headers: {} },
    };
    const request = async (kind: Kind): Promise<Hit> => {
      const start = Date.now();
      const response = await fetch(`${base}${targets[kind].path}`, { headers: targets[kind].headers, redirect: "manual" });
      const body = await response.text();
      return { kind, start, end: Date.now(), status: response.status, location: response.headers.get("location"), body };
    };

    // Before: everything answers normally.
    expect((await request("api")).status).toBe(200);
    expect((await request("app-api")).status).toBe(200);
    expect((await request("dashboard")).status).toBe(200);
    expect((await request("recipient")).status).toBe(404);

    // Load: 6 concurrent loops over the four kinds, bounded in time and count.
    const hits: Hit[] = [];
    let loading = true;
    const loadDeadline = Date.now() + 60_000;
    const kinds: Kind[] = ["api", "app-api", "dashboard", "recipient"];
    const loops = Array.from({ length: 6 }, async (_, loop) => {
      for (let i = loop; loading && Date.now() < loadDeadline && hits.length < 20_000; i++) {
        hits.push(await request(kinds[i % kinds.length]));
      }
    });

    try {
      await expect.poll(() => hits.length, { message: "the load is running" }).toBeGreaterThan(20);

      // Outbox rows committed before the outage, due while the database is down.
      const [{ workspace_id: workspaceId }] = await sql<{ workspace_id: string }[]>`
        select workspace_id from webhook_endpoints where id = ${endpointId}`;
      const messageId = `msg_outage${randomBytes(8).toString("hex")}`;
      const eventId = `evt_outage${randomBytes(8).toString("hex")}`;
      const mailTo = uniqueEmail("outage-mail");
      await sql.begin(async (tx) => {
        await tx`insert into email_messages (id, workspace_id, kind, "to", "from", subject, html, text, transport, next_attempt_at)
          values (${messageId}, ${workspaceId}, 'outage_check', ${mailTo}, 'Certify <certify@example.com>', 'Queued before the outage',
                  '<p>queued before the outage</p>', 'queued before the outage', 'mailbox', now() + interval '3 seconds')`;
        await tx`insert into events (id, workspace_id, type, data) values (${eventId}, ${workspaceId}, 'test.completed', ${tx.json({ outage: true })})`;
        await tx`insert into webhook_deliveries (id, workspace_id, event_id, endpoint_id, next_attempt_at)
          values (${`dlv_outage${randomBytes(8).toString("hex")}`}, ${workspaceId}, ${eventId}, ${endpointId}, now() + interval '3 seconds')`;
      });
      await sql.end();

      // The outage.
      const stopBegin = Date.now();
      cluster!.stop();
      const stopped = Date.now();
      expect(stopped - stopBegin, "the cluster stopped before the outbox rows came due").toBeLessThan(2_500);

      // A person in the browser meanwhile: the unavailable page, at the same address, not /signin.
      const during = await page.goto("/tests");
      expect([500, 503]).toContain(during?.status()); // 500 only if no request met the outage before this one
      await expect(page.getByRole("heading", { name: "Temporarily unavailable" })).toBeVisible();
      expect(new URL(page.url()).pathname).toBe("/tests");
      await keepScreenshot(page, "outage-dashboard-unavailable", testInfo);

      await new Promise((resolve) => setTimeout(resolve, Math.max(0, stopped + OUTAGE_MS - Date.now()))); // the outage lasts 10 s
      const restartBegin = Date.now();
      cluster!.start();
      const restarted = Date.now();

      // Recovery without restarting the app: the dashboard serves the signed-in trainer again.
      await expect
        .poll(async () => (await request("dashboard")).status, { message: "the dashboard serves again", timeout: 10_000, intervals: [250] })
        .toBe(200);
      const recovered = Date.now();
      expect(app!.process.exitCode, "the app was not restarted").toBeNull();
      loading = false;
      await Promise.all(loops);

      // Every request during the outage was answered within the bound.
      const duringOutage = hits.filter((hit) => hit.start >= stopBegin && hit.start < restartBegin);
      expect(duringOutage.length, "requests were made during the outage").toBeGreaterThan(20);
      const slow = duringOutage.filter((hit) => hit.end - hit.start >= BOUND_MS);
      expect(slow.map((hit) => `${hit.kind} ${hit.status} ${hit.end - hit.start} ms`), "answered within 3 s").toEqual([]);

      // What each kind answered while the database was down for sure.
      const down = duringOutage.filter((hit) => hit.start >= stopped && hit.end < restartBegin);
      for (const kind of kinds) expect(down.filter((hit) => hit.kind === kind).length, `${kind} requests in the outage`).toBeGreaterThan(0);
      for (const hit of down.filter((h) => h.kind === "api" || h.kind === "app-api")) {
        expect(hit.status, `${hit.kind}: ${hit.body}`).toBe(503);
        const body = JSON.parse(hit.body) as { error: { code: string; message: string; request_id: string } };
        expect(body.error.code).toBe("service_unavailable");
        expect(body.error.message).toEqual(expect.any(String));
        expect(body.error.request_id).toEqual(expect.any(String));
      }
      const pageHits = down.filter((h) => h.kind === "dashboard" || h.kind === "recipient");
      // The first page to meet the outage marks the database down for this process.
      const known = Math.min(...pageHits.map((hit) => hit.end)) + 100;
      for (const hit of pageHits) {
        expect(hit.location, `${hit.kind} is not redirected (${hit.status})`).toBeNull();
        // The App Router answers a page that throws 500 (error.tsx renders the unavailable
        // page); from then on the proxy answers pages 503 at once (lib/platform/server/outage-page.ts).
        // Either way: this page, never a redirect or a bare 500.
        if (hit.start > known) expect(hit.status, `${hit.kind} once the outage is known`).toBe(503);
        else expect([503, 500], `${hit.kind}: ${hit.status}`).toContain(hit.status);
        // The proxy's page is whole HTML; error.tsx's is rendered in the browser from the
        // error's digest, which the 500 document carries (the browser check above shows it).
        const unavailable = hit.body.includes('data-testid="unavailable"') || hit.body.includes(UNAVAILABLE_DIGEST);
        expect(unavailable, `${hit.kind} shows the unavailable page (${hit.status})`).toBe(true);
      }
      testInfo.annotations.push({
        type: "outage",
        description: `${duringOutage.length} requests during the outage, slowest ${Math.max(...duringOutage.map((h) => h.end - h.start))} ms; database back after ${restarted - restartBegin} ms, app serving ${recovered - restarted} ms later`,
      });

      // The session survived, and the browser left on the unavailable page gets the trainer's
      // page back by itself: that page reloads every 5 s (navigating it here as well would race
      // its reload). Signed in, at the same address, nothing pressed.
      await expect(page.getByRole("navigation", { name: "Trainer area" })).toBeVisible({ timeout: 15_000 });
      expect(new URL(page.url()).pathname).toBe("/tests");
      await expectSignedIn(page, email);
      expect((await request("recipient")).status).toBe(404);
      // The key's 120 requests a minute were used up by the load before the outage: 429 is an
      // answer from the database too (the limiter fails closed, 503, without it).
      expect([200, 429]).toContain((await request("api")).status);

      // The outbox rows committed before the outage are delivered after it.
      await expect.poll(() => receiver.received.find((hit) => hit.headers["x-webhook-event-id"] === eventId) !== undefined, {
        message: "the webhook is delivered",
        timeout: 15_000,
      }).toBe(true);
      const check = postgres(cluster!.url, { max: 1, onnotice: () => {} });
      try {
        await expect
          .poll(async () => (await check<{ status: string }[]>`select status from email_messages where id = ${messageId}`)[0]?.status, {
            message: "the e-mail is delivered",
            timeout: 15_000,
          })
          .toBe("sent");
        const [row] = await check<{ sent_at: Date }[]>`select sent_at from email_messages where id = ${messageId}`;
        expect(row.sent_at.getTime(), "the e-mail went out after the database came back").toBeGreaterThanOrEqual(restartBegin - 1_000);
        // The worker records the receiver's answer after the receiver has it (and after the
        // e-mail may already be sent): the row turns delivered a moment later, not at once.
        const deliveryRow = async () =>
          (await check<{ status: string; completed_at: Date | null }[]>`
            select status, completed_at from webhook_deliveries where event_id = ${eventId}`)[0];
        await expect.poll(async () => (await deliveryRow())?.status, { message: "the delivery is recorded", timeout: 15_000 }).toBe("delivered");
        const delivery = await deliveryRow();
        expect(delivery.completed_at!.getTime()).toBeGreaterThanOrEqual(restartBegin - 1_000);
        expect(receiver.received.filter((hit) => hit.headers["x-webhook-event-id"] === eventId), "delivered once").toHaveLength(1);
      } finally {
        await check.end();
      }
    } finally {
      loading = false;
      await Promise.allSettled(loops);
    }
  } catch (error) {
    await testInfo.attach("app output", { body: app?.output() ?? "", contentType: "text/plain" });
    throw error;
  } finally {
    await sql.end().catch(() => {});
    await receiver.close();
    await context.close();
  }
});
