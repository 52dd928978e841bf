import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { scheduledSteps, type ScheduledStep } from "@/db/schema";
import { newId } from "@/lib/ids";
import { claimDue } from "./claim";
import { notifyOutbox } from "./notify";
import { MAX_ATTEMPTS, retryDelayMs } from "./schedule";

export type StepHandler = (db: Db, step: ScheduledStep) => Promise<void>;

/** Step kinds and what runs them; each area registers its own (e.g. the deployment window). */
const handlers = new Map<string, StepHandler>();

export function registerStep(kind: string, handler: StepHandler): void {
  handlers.set(kind, handler);
}

/** Schedules a step in the caller's transaction, due at `runAt`. */
export async function scheduleStep(tx: Db, workspaceId: string, kind: string, payload: Record<string, unknown>, runAt: Date): Promise<ScheduledStep> {
  const [step] = await tx.insert(scheduledSteps).values({ id: newId("stp"), workspaceId, kind, payload, runAt }).returning();
  await notifyOutbox(tx);
  return step;
}

export function claimDueSteps(db: Db, limit: number): Promise<string[]> {
  return claimDue(db, "scheduled_steps", limit);
}

/** Runs one due step with its handler; a failure is retried on the shared schedule. */
export async function runStep(db: Db, stepId: string): Promise<"done" | "retry" | "failed" | "skipped"> {
  const [step] = await db.select().from(scheduledSteps).where(and(eq(scheduledSteps.id, stepId), eq(scheduledSteps.status, "pending")));
  if (!step) return "skipped";
  const handler = handlers.get(step.kind);
  const attempt = step.attempts + 1;
  try {
    if (!handler) throw new Error(`no handler registered for step kind "${step.kind}"`);
    await handler(db, step);
    await db
      .update(scheduledSteps)
      .set({ status: "done", attempts: attempt, lockedUntil: null, completedAt: new Date() })
      .where(eq(scheduledSteps.id, stepId));
    return "done";
  } catch (error) {
    const failed = attempt >= MAX_ATTEMPTS;
    await db
      .update(scheduledSteps)
      .set({
        status: failed ? "failed" : "pending",
        attempts: attempt,
        lockedUntil: null,
        lastError: String((error as Error).message ?? error).slice(0, 500),
        runAt: failed ? step.runAt : new Date(Date.now() + retryDelayMs(attempt)),
        completedAt: failed ? new Date() : null,
      })
      .where(eq(scheduledSteps.id, stepId));
    return failed ? "failed" : "retry";
  }
}

/**
 * Records a step as failed with its reason, unless it already finished: the outcome of an
 * executor run that gave up (Inngest's onFailure), so the step is not left pending forever.
 */
export async function failStep(db: Db, stepId: string, reason: string): Promise<boolean> {
  const rows = await db
    .update(scheduledSteps)
    .set({ status: "failed", lockedUntil: null, lastError: reason.slice(0, 500), completedAt: new Date() })
    .where(and(eq(scheduledSteps.id, stepId), eq(scheduledSteps.status, "pending")))
    .returning({ id: scheduledSteps.id });
  return rows.length > 0;
}
