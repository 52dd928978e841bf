import { expect, test, type APIResponse, type Page } from "@playwright/test";
import { api, pollStatus, signIn, signInOnThisPage, uniqueEmail } from "./helpers";

/**
 * Security headers on every kind of response (next.config.mjs `headers()`), the sandboxed
 * answers' own, no open redirect after sign-in, every answer under /api in the error shape,
 * cross-origin server actions refused, and client addresses taken from the connection
 * (scripts/serve.mjs). Requests to the would-be attacker's host are aborted by the test, so
 * nothing ever leaves 127.0.0.1 even if a redirect escaped.
 */

/** Requests to the attacker's host (not merely mentioning it in a query string). */
const EVIL = (url: URL) => url.hostname === "evil.example" || url.hostname.endsWith(".evil.example");

function expectSecurityHeaders(response: APIResponse, what: string, referrerPolicy = "strict-origin-when-cross-origin") {
  const headers = response.headers();
  expect(headers["x-content-type-options"], `${what}: X-Content-Type-Options`).toBe("nosniff");
  expect(headers["x-frame-options"], `${what}: X-Frame-Options`).toBe("DENY");
  expect(headers["content-security-policy"], `${what}: Content-Security-Policy`).toContain("frame-ancestors 'none'");
  expect(headers["referrer-policy"], `${what}: Referrer-Policy`).toBe(referrerPolicy);
}

/** A download or a web target's page: its own policies, not the pages' (nothing loads, no Referer). */
function expectSandboxed(response: APIResponse, what: string) {
  const headers = response.headers();
  expect(headers["content-security-policy"], `${what}: Content-Security-Policy`).toBe("default-src 'none'; sandbox");
  expect(headers["referrer-policy"], `${what}: Referrer-Policy`).toBe("no-referrer");
  expect(headers["x-content-type-options"], `${what}: X-Content-Type-Options`).toBe("nosniff");
  expect(headers["x-frame-options"], `${what}: X-Frame-Options`).toBe("DENY");
}

/** An answer in the API's error shape, its request id in the header and the body. */
async function expectError(response: APIResponse, status: number, code: string, what: string) {
  expect(response.status(), what).toBe(status);
  expect(response.headers()["content-type"], what).toContain("application/json");
  const requestId = response.headers()["x-request-id"];
  expect(requestId, what).toMatch(/^req_[0-9A-Z]{26}$/);
  const retryAfter = status === 429 ? { retry_after: Number(response.headers()["retry-after"]) } : {};
  expect(await response.json(), what).toEqual({ error: { code, message: expect.any(String), request_id: requestId, ...retryAfter } });
}

test("every kind of response carries the security headers", async ({ request }) => {
  const page = await request.get("/signin");
  expect(page.status()).toBe(200);
  expectSecurityHeaders(page, "a page");
  expectSecurityHeaders(await request.get("/", { maxRedirects: 0 }), "the root");

  const api = await request.get("/api/v1/certifications");
  expect(api.status()).toBe(401);
  expectSecurityHeaders(api, "an API route (an error answer)");

  const health = await request.get("/api/health");
  expect(health.status()).toBe(200);
  expectSecurityHeaders(health, "an API route");

  const missing = await request.get("/no-such-page");
  expect(missing.status()).toBe(404);
  expectSecurityHeaders(missing, "a 404");

  // Token pages send no Referer at all, even for a token that does not exist.
  const unknownToken = await request.get("/t/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
  expect(unknownToken.status()).toBe(404);
  expectSecurityHeaders(unknownToken, "an unknown /t/{token}", "no-referrer");
  for (const path of ["/join/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "/c/join/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]) {
    expectSecurityHeaders(await request.get(path), path, "no-referrer");
  }
});

/** Creates a one-recipient test in the dashboard without e-mail; returns the recipient's personal link. */
async function createTestLink(page: Page): Promise<string> {
  const email = uniqueEmail("headers-recipient");
  await page.goto("/tests/new");
  await page.getByRole("radio", { name: /AWS Certified Cloud Practitioner/ }).check();
  await page.getByLabel("Total questions").fill("4");
  await page.getByLabel("E-mail addresses").fill(`${email}, Hea Ders`);
  await expect(page.getByTestId("parsed-count")).toContainText("1 recipient");
  await page.getByRole("checkbox", { name: "Send e-mails" }).uncheck();
  await page.getByRole("button", { name: "Create test" }).click();
  await expect(page).toHaveURL(/\/tests\/[^/]+$/);
  const row = page.locator(`[data-testid="recipient-row"][data-email="${email}"]`);
  await expect(row).toHaveAttribute("data-status", "sent");
  await expect(row.getByRole("button", { name: `Copy link for ${email}`, exact: true })).toBeVisible();
  await row.getByRole("button", { name: "Copy link" }).click();
  await expect(row.getByRole("button", { name: "Copied" })).toBeVisible();
  return page.evaluate(() => navigator.clipboard.readText());
}

test("a recipient's personal test page sends no Referer; a signed-in user is never sent to another site", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ permissions: ["clipboard-read", "clipboard-write"] });
  try {
    const page = await context.newPage();
    await context.route(EVIL, (route) => route.abort());
    await signIn(page, uniqueEmail("security"));

    const link = await createTestLink(page);
    expect(link).toMatch(/\/t\/[^/]+$/);
    const tokenPage = await page.request.get(link);
    expect(tokenPage.status()).toBe(200);
    expectSecurityHeaders(tokenPage, "a real /t/{token}", "no-referrer");

    const origin = new URL(baseURL!).origin;
    for (const callbackUrl of ["/%5Cevil.example/phish", "/%09/evil.example/phish", "//evil.example/phish", "https://evil.example/phish", "/%5C%5Cevil.example"]) {
      // The redirect itself (no browser involved): its target resolves to this origin.
      const answer = await page.request.get(`/signin?callbackUrl=${callbackUrl}`, { maxRedirects: 0 });
      expect([303, 307, 308], `${callbackUrl}: a redirect`).toContain(answer.status());
      expect(new URL(answer.headers()["location"], `${origin}/signin`).origin, callbackUrl).toBe(origin);
      // And as a browser follows it.
      await page.goto(`/signin?callbackUrl=${callbackUrl}`);
      await expect(page).toHaveURL(/\/tests$/);
      expect(new URL(page.url()).origin, callbackUrl).toBe(origin);
    }
  } finally {
    await context.close();
  }
});

test("signing in from a link with another site as callbackUrl lands on the app", async ({ page, baseURL }) => {
  await page.context().route(EVIL, (route) => route.abort());
  await page.goto("/signin?callbackUrl=/%5Cevil.example/phish");
  await signInOnThisPage(page, uniqueEmail("security-callback"));
  await expect(page).toHaveURL(/\/tests$/);
  expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
});

test("every answer under /api is JSON: an unknown path 404, a method the path does not serve 405 with Allow, an unknown method 501", async ({ request }) => {
  for (const [method, path, referrerPolicy] of [
    ["GET", "/api/v1/no-such-thing"],
    ["POST", "/api/nothing/here"],
    ["GET", "/api"],
    // Under a personal token's path: no Referer, as for the token's own routes.
    ["DELETE", "/api/t/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/unknown", "no-referrer"],
  ]) {
    const response = await request.fetch(path, { method, maxRedirects: 0 });
    await expectError(response, 404, "not_found", `${method} ${path}`);
    expectSecurityHeaders(response, `${method} ${path}`, referrerPolicy);
  }
  for (const [method, path, allow] of [
    ["DELETE", "/api/v1/certifications", "GET, HEAD, OPTIONS, POST"],
    ["PUT", "/api/health", "GET, HEAD, OPTIONS"],
    ["GET", "/api/c/ctf_01J00000000000000000000000/join", "OPTIONS, POST"],
    ["PATCH", "/api/v1/classes", "GET, HEAD, OPTIONS, POST"],
  ]) {
    const response = await request.fetch(path, { method, data: method === "GET" ? undefined : {} });
    await expectError(response, 405, "method_not_allowed", `${method} ${path}`);
    expect(response.headers()["allow"], `${method} ${path}`).toBe(allow);
  }
  // HEAD is answered by GET's handler: here a 405 too, without a body.
  const head = await request.head("/api/c/ctf_01J00000000000000000000000/join");
  expect(head.status()).toBe(405);
  expect(head.headers()["allow"]).toBe("OPTIONS, POST");
  const options = await request.fetch("/api/v1/classes", { method: "OPTIONS" });
  expect(options.status()).toBe(204);
  expect(options.headers()["allow"]).toBe("GET, HEAD, OPTIONS, POST");
  // A method no route handler can serve is answered by the server in front of Next.js.
  const unknown = await request.fetch("/api/v1/tests", { method: "PROPFIND" });
  await expectError(unknown, 501, "not_implemented", "PROPFIND /api/v1/tests");
  expectSecurityHeaders(unknown, "PROPFIND /api/v1/tests");
});

test("a server action posted from another origin is refused 403 in the error shape, never a 500", async ({ request, baseURL }) => {
  const path = "/c/join/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
  const action = "7f".repeat(21);
  for (const origin of ["http://evil.example", "null"]) {
    const response = await request.post(path, { headers: { "next-action": action, origin, "content-type": "text/plain;charset=UTF-8" }, data: "[]" });
    await expectError(response, 403, "forbidden", `Next-Action from ${origin}`);
  }
  const form = await request.post(path, { headers: { origin: "http://evil.example" }, multipart: { [`$ACTION_ID_${action}`]: "" } });
  await expectError(form, 403, "forbidden", "a multipart form from another origin");
  // From our own origin the same request reaches Next.js (an action it does not know: a 4xx of its own).
  const own = await request.post(path, { headers: { "next-action": action, origin: new URL(baseURL!).origin, "content-type": "text/plain;charset=UTF-8" }, data: "[]" });
  expect(own.status()).not.toBe(403);
  expect(own.status()).toBeLessThan(500);
});

test("challenge files and web targets carry their own sandbox and no-referrer on the wire; 70 X-Forwarded-For values from one client share its bucket", async ({ page, playwright, baseURL }) => {
  test.setTimeout(120_000);
  await signIn(page, uniqueEmail("sandbox-admin"));
  const origin = new URL(page.url()).origin;
  const now = Date.now();
  const ctf = await api(page, "POST", "/api/v1/ctfs", { title: `Sandboxed ${now}`, starts_at: new Date(now + 86_400_000).toISOString(), ends_at: new Date(now + 2 * 86_400_000).toISOString() });

  // The organiser's download of a challenge file: HTML inside, served as an inert attachment.
  const challenge = await api(page, "POST", `/api/v1/ctfs/${ctf.id}/challenges`, { title: "Boxed", category: "forensics", points: 50, description: "A file.", flag: "CTF{boxed}" });
  const uploaded = await page.request.post(`/api/v1/ctfs/${ctf.id}/challenges/${challenge.id}/files`, {
    headers: { origin },
    multipart: { file: { name: "notes.html", mimeType: "text/html", buffer: Buffer.from("<script>alert(1)</script>") } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const download = await page.request.get(`/api/v1/ctfs/${ctf.id}/challenges/${challenge.id}/files/${(await uploaded.json()).id}`);
  expect(download.status()).toBe(200);
  expectSandboxed(download, "a challenge file's download");

  // A generated web target, deployed on its own.
  const pending = await api(page, "POST", `/api/v1/ctfs/${ctf.id}/challenges/generate`, { category: "web", difficulty: "easy", template: "cookie-jar" });
  await pollStatus(page, `/api/v1/ctfs/${ctf.id}/challenges/${pending.id}`, "draft");
  const deployment = await api(page, "POST", "/api/v1/deployments", { challenge_id: pending.id, duration_minutes: 30 });
  await pollStatus(page, `/api/v1/deployments/${deployment.id}`, "live");

  const visitor = await playwright.request.newContext({ baseURL });
  try {
    // One connection's client writes a new X-Forwarded-For each time: the app keys on the
    // socket's address (TRUST_PROXY=0), so these are one client's 70 joins, 60 an hour allowed.
    const statuses: number[] = [];
    for (let i = 0; i < 70; i++) {
      const joined = await visitor.post(`/api/d/${deployment.id}/join`, { headers: { origin, "x-forwarded-for": `198.51.100.${i}` }, data: { name: `Visitor ${i}` } });
      statuses.push(joined.status());
      if (joined.status() === 429) await expectError(joined, 429, "rate_limit_exceeded", `join ${i}`);
    }
    expect(statuses.filter((status) => status === 201)).toHaveLength(60);
    expect(statuses.slice(60)).toEqual(Array(10).fill(429));

    // The visitor is a player now (the cookie of a join that passed): the target's pages.
    const target = await visitor.get(`/api/d/${deployment.id}/target/index`);
    expect(target.status(), await target.text()).toBe(200);
    expect(await target.text()).toContain("The Cookie Jar");
    expectSandboxed(target, "a web target's page");
  } finally {
    await visitor.dispose();
  }
});
