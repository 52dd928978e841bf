import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as listRoute from "@/app/api/v1/ctfs/[ctf_id]/announcements/route";
import { announcements } from "@/db/schema";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { expectStatus } from "../../helpers/competition";
import { runningCtf } from "../../helpers/samples/play";
import { createCtf } from "@/lib/ctf/competitions/competitions";
import { createCtfInput } from "@/lib/ctf/competitions/schemas";

/**
 * On a CTFd-hosted competition an announcement is also posted to CTFd as a notification
 * (`POST /api/v1/notifications`). A small stand-in answers the two calls involved (deploying
 * checks `GET /api/v1/challenges`), records them, and can be told to fail.
 */

type Recorded = { method: string; path: string; authorization?: string; body: unknown };
const TOKEN = "ctfd_test_token";
let server: http.Server;
let failing = false;
const calls: Recorded[] = [];
let database: TestDatabase;
let trainer: Trainer;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0];
      calls.push({ method: req.method ?? "", path, authorization: req.headers.authorization, body: text ? JSON.parse(text) : undefined });
      res.setHeader("content-type", "application/json");
      if (failing) {
        res.statusCode = 500;
        res.end(JSON.stringify({ success: false, errors: ["boom"] }));
        return;
      }
      res.end(JSON.stringify({ success: true, data: path === "/api/v1/notifications" ? { id: calls.length, ...(text ? JSON.parse(text) : {}) } : [] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  vi.stubEnv("CTFD_URL", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  vi.stubEnv("CTFD_TOKEN", TOKEN);
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
});
afterAll(async () => {
  await database?.drop();
  await new Promise((resolve) => server?.close(resolve));
  vi.unstubAllEnvs();
});

const post = (ctfId: string, body: unknown) => call(listRoute.POST, `/api/v1/ctfs/${ctfId}/announcements`, { method: "POST", key: trainer.secret, params: { ctf_id: ctfId }, body });
const notifications = () => calls.filter((c) => c.method === "POST" && c.path === "/api/v1/notifications");

describe("a CTFd-hosted competition", () => {
  it("posts the announcement to CTFd's notifications with the token, and keeps it", async () => {
    const ctfId = await runningCtf(database.db, trainer);
    const posted = expectStatus(await post(ctfId, { title: "Server restart", body: "At **12:00** UTC." }), 201);
    expect(notifications().map((c) => [c.authorization, c.body])).toEqual([[`Token ${TOKEN}`, { title: "Server restart", content: "At **12:00** UTC.", type: "toast", sound: true }]]);
    expect((await database.db.select().from(announcements).where(eq(announcements.ctfId, ctfId))).map((a) => a.id)).toEqual([posted.id]);
  });

  it("CTFd failing → 503 and nothing kept; a competition not deployed is not sent to CTFd", async () => {
    const ctfId = await runningCtf(database.db, trainer);
    const before = notifications().length;
    failing = true;
    try {
      const refused = await post(ctfId, { title: "Lost", body: "x" });
      expect(refused.status).toBe(503);
      expect(refused.body.error.message).toMatch(/CTFd answered 500/);
    } finally {
      failing = false;
    }
    expect(await database.db.select().from(announcements).where(eq(announcements.ctfId, ctfId))).toEqual([]);

    const draft = await createCtf(database.db, trainer.workspaceId, createCtfInput.parse({ title: "Later", starts_at: "2026-12-01T10:00:00Z", ends_at: "2026-12-02T10:00:00Z" }));
    expect(draft.host).toBe("ctfd");
    expectStatus(await post(draft.id, { title: "Soon", body: "x" }), 201);
    expect(notifications().length).toBe(before + 1);
  });
});
