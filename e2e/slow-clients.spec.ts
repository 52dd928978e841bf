import { expect, test } from "@playwright/test";
import fs from "node:fs";
import { startAppInstance, type AppInstance } from "./app-instance";
import { freePort } from "../tests/helpers/ports";
import { trickle } from "../tests/helpers/slow-client";

/**
 * Slow clients against `npm start` itself (scripts/serve.mjs serving the build): headers
 * that take longer than HTTP_HEADERS_TIMEOUT_MS, or a body that makes the whole request take
 * longer than HTTP_REQUEST_TIMEOUT_MS, are answered 408 and the socket is closed — here with
 * 1 s and 2 s, the production defaults being 20 s and 60 s. An instance of its own, on a
 * PGlite directory of its own unless the run has DATABASE_URL.
 */

let app: AppInstance | undefined;
let dataDir: string | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const port = await freePort();
  dataDir = process.env.DATABASE_URL ? undefined : `.data/e2e-slow-clients-${port}`;
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  app = await startAppInstance(port, { HTTP_HEADERS_TIMEOUT_MS: "1000", HTTP_REQUEST_TIMEOUT_MS: "2000", ...(dataDir ? { PGLITE_DATA_DIR: dataDir } : {}) });
});

test.afterAll(async () => {
  await app?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test("headers sent a byte at a time past the headers timeout: 408, and the socket closed before they end", async () => {
  const { port } = new URL(app!.baseUrl);
  // 300 bytes at one every 100 ms would take 30 s.
  const outcome = await trickle("127.0.0.1", Number(port), { head: "GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ", slow: "a".repeat(300), everyMs: 100, tail: "\r\n\r\n" });
  expect(outcome.finished, `the server waited for the whole request: ${app!.output().slice(-2000)}`).toBe(false);
  expect(outcome.received).toMatch(/^HTTP\/1\.1 408 /);
});

test("a body sent a byte at a time past the request timeout: 408, and the socket closed before it ends", async () => {
  const { port } = new URL(app!.baseUrl);
  const body = JSON.stringify({ email: `${"x".repeat(280)}@example.com` });
  const head = `POST /api/c/ctf_01J00000000000000000000000/join HTTP/1.1\r\nHost: localhost:${port}\r\nOrigin: http://localhost:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
  const outcome = await trickle("127.0.0.1", Number(port), { head, slow: body, everyMs: 100 });
  expect(outcome.finished, `the server waited for the whole request: ${app!.output().slice(-2000)}`).toBe(false);
  expect(outcome.received).toMatch(/^HTTP\/1\.1 408 /);
});

test("a client at an ordinary pace is served", async () => {
  const response = await fetch(`${app!.baseUrl}/api/health`);
  expect(response.status).toBe(200);
  expect(response.headers.get("keep-alive")).toBe("timeout=65");
});
