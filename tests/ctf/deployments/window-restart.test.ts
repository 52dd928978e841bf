import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { scheduledSteps } from "@/db/schema";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer } from "../../helpers/fixtures";
import { receiverPool } from "../../helpers/receivers";
import { deliveriesOf, settledDeliveries } from "../../helpers/delivery";
import { challengeInput, client, ctfInput, expectCompetitionDelivery, expectStatus, pollUntil, requestsFor, settle, waitUntil } from "../../helpers/competition";
import { stepRegistry } from "@/lib/registry/steps";

/**
 * The deployment window is a database row, not a timer in a process: a window that elapses
 * while no executor runs is closed by the next one to start, exactly once.
 */

let database: TestDatabase;
const receivers = receiverPool();
const workers: EmbeddedWorker[] = [];

beforeAll(async () => {
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
  vi.stubEnv("WEBHOOK_RETRY_STEP_MS", "200");
  vi.stubEnv("CTFD_URL", "");
  vi.stubEnv("CTFD_TOKEN", "");
  database = await createTestDatabase();
});

afterAll(async () => {
  await receivers.closeAll();
  for (const worker of workers) await worker.stop();
  await database?.drop();
  vi.unstubAllEnvs();
});

async function startWorker(): Promise<EmbeddedWorker> {
  const worker = new EmbeddedWorker(database, { steps: stepRegistry, pollMs: 100 });
  workers.push(worker);
  await worker.start();
  return worker;
}

describe("a standalone deployment's window across a worker restart", () => {
  it("stops by itself (window_elapsed) when a new worker starts after ends_at, with exactly one deployment.stopped", async () => {
    const trainer = await createTrainer(database.db);
    const api = client(trainer.secret);
    const receiver = await receivers.start({ kind: "ok" }, "window");
    const secret = `window-${randomBytes(16).toString("hex")}`;
    const hook = expectStatus(await api.createWebhook({ url: receiver.url, events: ["deployment.deployed", "deployment.stopped"], secret }), 201);

    const ctf = expectStatus(await api.createCtf(ctfInput()), 201);
    const challenge = expectStatus(await api.createChallenge(ctf.id, challengeInput()), 201);

    const first = await startWorker();
    const endsAt = new Date(Date.now() + 3_000);
    const created = expectStatus(await api.createDeployment({ challenge_id: challenge.id, ends_at: endsAt.toISOString() }), 202);
    const live = await settle(() => api.getDeployment(created.id), "deploying");
    expect(live.status).toBe("live");
    expect(live.ends_at).toBe(endsAt.toISOString());
    await receiver.waitForRequests(1);
    await first.stop();

    // No executor runs while the window elapses: the deployment stays live, its stop step pending
    // though due (by the database's clock, the one a claim goes by).
    await waitUntil("the window to elapse", async () => {
      const [stop] = await database.db
        .select({ due: sql<boolean>`${scheduledSteps.runAt} <= now()` })
        .from(scheduledSteps)
        .where(eq(scheduledSteps.kind, "deployment.stop"));
      return stop?.due;
    });
    expect(expectStatus(await api.getDeployment(created.id), 200).status).toBe("live");
    const pending = await database.db.select().from(scheduledSteps).where(eq(scheduledSteps.kind, "deployment.stop"));
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ status: "pending", payload: expect.objectContaining({ deploymentId: created.id }) });
    expect(requestsFor(receiver.requests, "deployment.stopped")).toHaveLength(0);

    const restartedAt = Date.now();
    await startWorker();
    const stopped = await pollUntil("the new worker to close the window", () => api.getDeployment(created.id), (d) => d.status !== "live", 10_000);
    expect(stopped).toMatchObject({ status: "stopped", stop_reason: "window_elapsed" });
    expect(Date.parse(stopped.stopped_at)).toBeGreaterThanOrEqual(restartedAt - 5);

    // Delivered once, and nothing more comes: every delivery of the endpoint is settled and the
    // stop step finished (its handler published the event before the step was marked).
    await settledDeliveries(database.db, trainer.workspaceId, hook.id, 2);
    await waitUntil("the stop step to finish", async () => {
      const steps = await database.db.select().from(scheduledSteps).where(eq(scheduledSteps.kind, "deployment.stop"));
      return steps.every((step) => step.status !== "pending");
    });
    const stops = requestsFor(receiver.requests, "deployment.stopped");
    expect(stops).toHaveLength(1);
    const body = expectCompetitionDelivery(stops[0], secret, "deployment.stopped", { from: restartedAt, to: Date.now() });
    expect(body.data).toEqual({ deployment_id: created.id, challenge_id: challenge.id, stopped_at: stopped.stopped_at, reason: "window_elapsed" });
    expect(requestsFor(receiver.requests, "deployment.deployed")).toHaveLength(1);
    expect((await deliveriesOf(database.db, trainer.workspaceId, hook.id)).map((d) => [d.event, d.status]).sort()).toEqual([
      ["deployment.deployed", "delivered"],
      ["deployment.stopped", "delivered"],
    ]);
    const [step] = await database.db.select().from(scheduledSteps).where(eq(scheduledSteps.kind, "deployment.stop"));
    expect(step).toMatchObject({ status: "done", attempts: 1 });
  });
});
