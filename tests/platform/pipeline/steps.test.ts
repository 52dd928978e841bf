import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { scheduledSteps } from "@/db/schema";
import { newId } from "@/lib/kernel/ids";
import { runStep, type StepHandler } from "@/lib/platform/pipeline/channels/steps/steps";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer } from "../../helpers/fixtures";
import { scheduleStep } from "@/lib/ctf/steps";
import { stepRegistry } from "@/lib/registry/steps";
import { registeredSteps } from "@/lib/platform/pipeline/channels/steps/steps";
import { ctfSteps } from "@/lib/ctf/steps";
import { ctfStepHandlers } from "@/lib/registry/ctf-step-handlers";

/*
 * A scheduled step reaches its handler only through its kind's schema (lib/platform/pipeline/channels/steps/catalog.ts):
 * a step no handler can run fails at once with the reason, without a retry; a well-formed
 * one runs with its payload parsed.
 */

let database: TestDatabase;
let workspaceId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ workspaceId } = await createTrainer(database.db));
});

afterAll(async () => {
  await database?.drop();
});

/** The real handlers, with the two kinds these tests schedule replaced by spies. */
function spiedHandlers() {
  const deploy = vi.fn<StepHandler<typeof ctfSteps, "ctf.deploy">>(async () => {});
  const stop = vi.fn<StepHandler<typeof ctfSteps, "deployment.stop">>(async () => {});
  const handlers = { ...stepRegistry, ...registeredSteps(ctfSteps, { ...ctfStepHandlers, "ctf.deploy": deploy, "deployment.stop": stop }) };
  return { handlers, deploy, stop };
}

/** A row as an older release (or a hand-edited database) might have left it: not checked on the way in. */
async function insertStep(kind: string, payload: Record<string, unknown>) {
  const [step] = await database.db.insert(scheduledSteps).values({ id: newId("stp"), workspaceId, kind, payload, runAt: new Date() }).returning();
  return step;
}

async function stepRow(id: string) {
  const [row] = await database.db.select().from(scheduledSteps).where(eq(scheduledSteps.id, id));
  return row;
}

describe("running a scheduled step", () => {
  it("runs a well-formed step's handler with its parsed payload", async () => {
    const { handlers, stop, deploy } = spiedHandlers();
    const step = await database.db.transaction((tx) =>
      scheduleStep(tx, workspaceId, "deployment.stop", { deploymentId: "dep_typed", reason: "window_elapsed" }, new Date()),
    );
    expect(await runStep(database.db, step.id, handlers)).toBe("done");
    expect(stop).toHaveBeenCalledTimes(1);
    expect(stop).toHaveBeenCalledWith(database.db, { deploymentId: "dep_typed", reason: "window_elapsed" });
    expect(deploy).not.toHaveBeenCalled();
    expect(await stepRow(step.id)).toMatchObject({ status: "done", attempts: 1, lastError: null });
  });

  it("fails a step whose payload fails its kind's schema at once, with the reason, without calling the handler", async () => {
    const { handlers, deploy } = spiedHandlers();
    const step = await insertStep("ctf.deploy", { ctf: "ctf_renamed_field" });
    expect(await runStep(database.db, step.id, handlers)).toBe("failed");
    expect(deploy).not.toHaveBeenCalled();
    const row = await stepRow(step.id);
    expect(row).toMatchObject({ status: "failed", attempts: 0, lockedUntil: null });
    expect(row.lastError).toBe('payload of step "ctf.deploy" fails its schema: ctfId: Invalid input: expected string, received undefined');
    expect(row.completedAt).not.toBeNull();
    // Failed for good: a second run does nothing.
    expect(await runStep(database.db, step.id, handlers)).toBe("skipped");
  });

  it("fails a step of an unknown kind at once, with the reason, without calling any handler", async () => {
    const { handlers, deploy, stop } = spiedHandlers();
    const step = await insertStep("ctf.teardown", { ctfId: "ctf_x" });
    expect(await runStep(database.db, step.id, handlers)).toBe("failed");
    expect(deploy).not.toHaveBeenCalled();
    expect(stop).not.toHaveBeenCalled();
    expect(await stepRow(step.id)).toMatchObject({ status: "failed", attempts: 0, lastError: 'unknown step kind "ctf.teardown": no handler runs it' });
  });

  it("retries a well-formed step whose handler throws (the failure may pass)", async () => {
    const { handlers, deploy } = spiedHandlers();
    deploy.mockRejectedValueOnce(new Error("host unavailable"));
    const step = await database.db.transaction((tx) => scheduleStep(tx, workspaceId, "ctf.deploy", { ctfId: "ctf_retried" }, new Date()));
    expect(await runStep(database.db, step.id, handlers)).toBe("retry");
    expect(deploy).toHaveBeenCalledWith(database.db, { ctfId: "ctf_retried" });
    expect(await stepRow(step.id)).toMatchObject({ status: "pending", attempts: 1, lastError: "host unavailable" });
  });
});

describe("scheduling a step", () => {
  it("refuses a payload that fails its kind's schema, and writes nothing", async () => {
    const before = await database.db.select({ id: scheduledSteps.id }).from(scheduledSteps);
    await expect(database.db.transaction((tx) => scheduleStep(tx, workspaceId, "ctf.deploy", { ctfId: "" }, new Date()))).rejects.toThrow(
      /cannot schedule step "ctf\.deploy": ctfId: Too small/,
    );
    expect(await database.db.select({ id: scheduledSteps.id }).from(scheduledSteps)).toHaveLength(before.length);
  });

  it("stores the payload as parsed: keys outside the schema are not kept", async () => {
    // A type error too; the cast stands for a caller that built the payload dynamically.
    const payload = { challengeId: "chl_parsed", extra: "dropped" } as { challengeId: string };
    const step = await database.db.transaction((tx) => scheduleStep(tx, workspaceId, "challenge.publish", payload, new Date()));
    expect(step.payload).toEqual({ challengeId: "chl_parsed" });
  });
});
