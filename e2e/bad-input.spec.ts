import { expect, test } from "@playwright/test";
import { signIn, uniqueEmail } from "./helpers";

/**
 * What the built server answers to input that breaks before any handler of ours runs, or
 * that only a real HTTP server can carry: malformed percent-encoding, NUL in a path, a
 * body announced as 20 MB, an opaque `Origin: null`. The handlers' own answers to every
 * other kind of bad input are fuzzed in tests/platform/fuzz/every-route.test.ts.
 */

function expectErrorShape(body: any, code: string) {
  expect(body.error.code).toBe(code);
  expect(body.error.message).toEqual(expect.any(String));
  expect(body.error.request_id).toMatch(/^req_[0-9A-Z]{26}$/);
}

test("malformed percent-encoding: 400 JSON on API paths, the not-found page on pages", async ({ request }) => {
  for (const path of ["/api/v1/tests/%ZZ", "/api/t/%ZZ/answers", "/api/c/%C3%28/join", "/api/app/tests/%E0%A4%A/export"]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(400);
    expectErrorShape(await response.json(), "invalid_path");
  }
  for (const path of ["/t/%ZZ", "/join/%C3%28", "/c/%ZZ", "/d/%E0%A4%A"]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
    expect(response.headers()["content-type"]).toContain("text/html");
  }  // A certificate's public files and the issuer profiles answer JSON: a malformed id is a 404 in the error shape (found from outside: it was the HTML page).
  for (const path of ["/certificates/%ZZ/pdf", "/certificates/%ZZ/credential", "/certificates/%C3%28/status", "/issuers/%", "/.well-known/jwks.json/%ZZ"]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
    expectErrorShape(await response.json(), "not_found");
  }
});

test("a NUL in a page's path is a 404, not a 500", async ({ request }) => {
  for (const path of ["/t/%00", "/c/%00", "/d/%00", "/join/%00", "/c/join/%00", "/t/a%00b"]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
  }
});

test("a body over 1 MB is refused with 413 on every kind of route", async ({ request }) => {
  const big = Buffer.alloc(20_000_000, "a");
  const routes: [string, string][] = [
    ["POST", "/api/v1/tests"],
    ["PUT", "/api/t/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/answers"],
    ["POST", "/api/c/ctf_01J00000000000000000000000/join"],
    ["POST", "/api/v1/certifications"],
    ["POST", "/api/v1/ctfs/ctf_01J00000000000000000000000/deploy"],
  ];
  for (const [method, path] of routes) {
    const response = await request.fetch(path, { method, data: big, headers: { "content-type": "application/json" } });
    expect(response.status(), path).toBe(413);
    expectErrorShape(await response.json(), "payload_too_large");
  }
});

test("Origin: null (a sandboxed frame) is a 403 on the join form, the dashboard's own routes and /api/v1 called with a session", async ({ page, request }) => {
  // Signed in: the session routes refuse the cross-origin change itself, not a missing session.
  await signIn(page, uniqueEmail("origin-null"));
  for (const path of ["/api/c/ctf_01J00000000000000000000000/join", "/api/v1/certifications", "/api/v1/tests"]) {
    const response = await page.request.post(path, { data: { email: "a@example.com" }, headers: { origin: "null" } });
    expect(response.status(), path).toBe(403);
    expectErrorShape(await response.json(), "forbidden");
  }
  // Without a key and without a session, /api/v1 asks for the key (an integrator's curl sends no Origin).
  const anonymous = await request.post("/api/v1/tests", { data: {} });
  expect(anonymous.status()).toBe(401);
});
