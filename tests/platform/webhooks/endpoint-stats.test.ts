import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { webhookAttempts, webhookDeliveries } from "@/db/schema";
import { newId } from "@/lib/kernel/ids";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { sendTestEvent } from "@/lib/platform/webhooks/deliveries";
import { createTestResultWebhook, createWebhook } from "@/lib/platform/webhooks/endpoints";
import { SAMPLE_SUBJECT } from "@/lib/platform/webhooks/subjects";
import { endpointHealth } from "@/lib/platform/webhooks/health/stats";
import * as healthRoute from "@/app/api/app/webhooks/health/route";
import { webhookHealthContracts } from "@/lib/platform/webhooks/health/contracts";
import { deliveriesOf } from "../../helpers/delivery";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { signInAs } from "../../helpers/session";

/**
 * The dashboard's figures of endpoint health: each endpoint's attempts, success rate and
 * median (p50) duration over the last 24 hours, from known attempts; and, per delivery,
 * which test and recipient (or competition object) it was about, a sample labelled as one.
 */

vi.mock("@/lib/platform/auth/session", () => import("../../helpers/session"));

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

const HOUR = 3_600_000;

describe("endpoint figures over the last 24 hours", () => {
  it("counts completed attempts in the window, their 2xx share and their median duration", async () => {
    const db = database.db;
    const trainer = await createTrainer(db);
    const stranger = await createTrainer(db);
    const busy = await createWebhook(db, trainer.workspaceId, { url: "https://example.com/busy", events: [] }, "api");
    const idle = await createTestResultWebhook(db, trainer.workspaceId, { url: "https://example.com/idle" });
    await createWebhook(db, stranger.workspaceId, { url: "https://example.com/other", events: [] }, "api");
    const at = new Date();
    const ago = (ms: number) => new Date(at.getTime() - ms);

    const event = await publishEvent(db, trainer.workspaceId, "ctf.deleted", { managed_ctf_id: "ctf_stats", title: "Stats", deleted_at: at.toISOString() });
    // Known attempts: three 2xx (100, 200, 300 ms) and one 500 (1000 ms) in the window; one
    // 2xx 25 hours ago (out); one interrupted attempt in the window (no answer: out).
    const attempts: { ok: boolean; durationMs: number; startedAt: Date; state?: "interrupted" }[] = [
      { ok: true, durationMs: 100, startedAt: ago(1 * HOUR) },
      { ok: true, durationMs: 200, startedAt: ago(2 * HOUR) },
      { ok: true, durationMs: 300, startedAt: ago(23 * HOUR) },
      { ok: false, durationMs: 1000, startedAt: ago(3 * HOUR) },
      { ok: true, durationMs: 5000, startedAt: ago(25 * HOUR) },
      { ok: false, durationMs: 0, startedAt: ago(HOUR / 2), state: "interrupted" },
    ];
    for (const attempt of attempts) {
      const id = newId("dlv");
      await db.insert(webhookDeliveries).values({
        id,
        workspaceId: trainer.workspaceId,
        eventId: event.id,
        endpointId: busy.id,
        status: attempt.ok ? "delivered" : "dropped",
        attempts: 1,
        createdAt: attempt.startedAt,
        completedAt: attempt.startedAt,
      });
      await db.insert(webhookAttempts).values({
        deliveryId: id,
        number: 1,
        state: attempt.state ?? "completed",
        ok: attempt.ok,
        statusCode: attempt.ok ? 200 : attempt.state ? null : 500,
        durationMs: attempt.durationMs,
        startedAt: attempt.startedAt,
      });
    }

    const figures = await endpointHealth(db, trainer.workspaceId, at);
    expect(figures.window_hours).toBe(24);
    expect(figures.data.map((row) => row.endpoint_id).sort()).toEqual([busy.id, idle.id].sort());
    expect(figures.data.find((row) => row.endpoint_id === busy.id)).toEqual({
      endpoint_id: busy.id,
      attempts: 4,
      succeeded: 3,
      success_rate: 0.75,
      p50_latency_ms: 250,
      failing_since: null,
      health_mailed_at: null,
    });
    expect(figures.data.find((row) => row.endpoint_id === idle.id)).toMatchObject({ attempts: 0, succeeded: 0, success_rate: null, p50_latency_ms: null });

    // The same through the dashboard's route, as its contract says.
    signInAs(trainer);
    try {
      const answer = await call(healthRoute.GET, "/api/app/webhooks/health", { headers: { origin: "http://localhost", "x-forwarded-host": "localhost" } });
      expect(answer.status).toBe(200);
      expect(webhookHealthContracts.health.response!.safeParse(answer.body).success).toBe(true);
      expect(answer.body.data.find((row: { endpoint_id: string }) => row.endpoint_id === busy.id)).toMatchObject({ attempts: 4, succeeded: 3 });
    } finally {
      signInAs(undefined);
    }
  });
});

describe("what each delivery was about", () => {
  it("names the test and recipient, or the competition object, and labels the dashboard's sample", async () => {
    const db = database.db;
    const trainer = await createTrainer(db);
    const results = await createTestResultWebhook(db, trainer.workspaceId, { url: "https://example.com/results" });
    const hook = await createWebhook(db, trainer.workspaceId, { url: "https://example.com/hook", events: [] }, "api");
    await publishEvent(db, trainer.workspaceId, "test.completed", {
      test: "ABCD-EFGH",
      score: 80,
      correct: 4,
      questions: 5,
      recipient: { email: "ada@example.test", name: "Ada" },
      domains: [],
      passed: true,
    });
    await sendTestEvent(db, trainer.workspaceId, results.id);
    const [sample, real] = await deliveriesOf(db, trainer.workspaceId, results.id);
    const none = { competition_id: null, challenge_id: null, object: null };
    expect(real.about).toEqual({ sample: false, test: "ABCD-EFGH", recipient_email: "ada@example.test", recipient_name: "Ada", ...none, subject: "Test ABCD-EFGH · Ada <ada@example.test>" });
    expect(real.kind).toBe("event");
    expect(sample.about).toEqual({ sample: true, test: "SAMPLE-TEST", recipient_email: "recipient@example.com", recipient_name: "Sample Recipient", ...none, subject: SAMPLE_SUBJECT });
    expect(sample.kind).toBe("test_event");

    await publishEvent(db, trainer.workspaceId, "challenge.published", {
      managed_ctf_id: "ctf_real",
      challenge_id: "chl_real",
      title: "Buffer",
      category: "pwn",
      platform_challenge_id: 7,
    });
    await publishEvent(db, trainer.workspaceId, "member.joined", { managed_ctf_id: "ctf_real", member_id: "mem_real", email: "p@example.test", joined_at: new Date().toISOString() });
    await publishEvent(db, trainer.workspaceId, "ctf.deployed", { managed_ctf_id: "ctf_real", title: "Real CTF", url: "https://ctf.example.test", is_public: true });
    await sendTestEvent(db, trainer.workspaceId, hook.id);
    const [competitionSample, deployed, joined, published] = await deliveriesOf(db, trainer.workspaceId, hook.id);
    const competition = { sample: false, test: null, recipient_name: null, competition_id: "ctf_real" };
    expect(published.about).toEqual({
      ...competition,
      recipient_email: null,
      challenge_id: "chl_real",
      object: { type: "challenge", id: "chl_real", title: "Buffer" },
      subject: "Challenge “Buffer” (chl_real) · competition ctf_real",
    });
    expect(joined.about).toEqual({
      ...competition,
      recipient_email: "p@example.test",
      challenge_id: null,
      object: { type: "member", id: "mem_real", title: null },
      subject: "Member p@example.test · competition ctf_real",
    });
    expect(deployed.about).toEqual({ ...competition, recipient_email: null, challenge_id: null, object: { type: "ctf", id: "ctf_real", title: "Real CTF" }, subject: "Competition “Real CTF” (ctf_real)" });
    expect([published, joined, deployed].map((delivery) => delivery.kind)).toEqual(["event", "event", "event"]);
    expect(competitionSample.about).toMatchObject({ sample: true, object: { type: "ctf", id: "ctf_SAMPLE", title: "Sample CTF" }, subject: SAMPLE_SUBJECT });
    expect(competitionSample.kind).toBe("test_event");
  });
});
