import { expect, test } from "@playwright/test";
import http from "node:http";

/**
 * `npm start` keeps an idle connection 65 s (README, "Keep-alive"), not Node's 5 s: a
 * keep-alive client or a load balancer (60 s idle) closes it first, so no request is sent
 * on a connection at the moment the app closes it (ECONNRESET, a proxy's 502). The header
 * Node sends says what the server does; the second request goes on the same socket.
 */
test("an idle connection is kept open 65 s (Keep-Alive: timeout=65), and reused", async ({ baseURL }) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path: string) =>
    new Promise<{ status: number; keepAlive: string; socket: unknown }>((resolve, reject) => {
      const request = http.get(new URL(path, baseURL), { agent }, (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0, keepAlive: String(response.headers["keep-alive"]), socket: request.socket }));
      });
      request.on("error", reject);
    });
  try {
    const first = await get("/api/health");
    expect(first.status).toBe(200);
    expect(first.keepAlive).toBe("timeout=65");
    const second = await get("/signin");
    expect(second.status).toBe(200);
    expect(second.socket, "the same connection").toBe(first.socket);
  } finally {
    agent.destroy();
  }
});
