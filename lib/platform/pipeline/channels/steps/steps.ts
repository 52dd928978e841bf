import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { scheduledSteps, type ScheduledStep } from "@/db/schema";
import { newId } from "@/lib/kernel/ids";
import { isStepKind, parseStepPayload, type StepData, type StepKind, type StepPayload } from "@/lib/platform/pipeline/channels/steps/catalog";
import { claimDue } from "@/lib/platform/pipeline/outbox/claim";
import { notifyOutbox } from "@/lib/platform/pipeline/outbox/notify";
import { MAX_ATTEMPTS, retryDelayMs } from "@/lib/platform/pipeline/outbox/schedule";

export type StepHandler<K extends StepKind> = (db: Db, payload: StepData<K>) => Promise<void>;

/** A handler for every kind of the catalog: a kind without one does not compile (lib/registry/steps.ts). */
export type StepHandlers = { [K in StepKind]: StepHandler<K> };

export type StepOutcome = "done" | "retry" | "failed" | "skipped";

/**
 * Schedules a step in the caller's transaction, due at `runAt`. The payload is typed by the
 * kind and validated by its schema before it is written: a step that could never run is
 * refused here, in the transaction that wanted it, not found later by the executor.
 */
export async function scheduleStep<K extends StepKind>(tx: Db, workspaceId: string, kind: K, payload: StepPayload<K>, runAt: Date): Promise<ScheduledStep> {
  const parsed = parseStepPayload(kind, payload);
  if (!parsed.success) throw new Error(`cannot schedule step "${kind}": ${describeIssues(parsed.error)}`);
  const [step] = await tx.insert(scheduledSteps).values({ id: newId("stp"), workspaceId, kind, payload: parsed.data, runAt }).returning();
  await notifyOutbox(tx);
  return step;
}

export function claimDueSteps(db: Db, limit: number): Promise<string[]> {
  return claimDue(db, "scheduled_steps", limit);
}

/**
 * Runs one due step with its kind's handler and the payload parsed by the kind's schema. A
 * failing handler is retried on the shared schedule; a step no handler can run (an unknown
 * kind, a payload that fails its schema) fails at once with the reason: retrying it would
 * fail the same way.
 */
export async function runStep(db: Db, stepId: string, handlers: StepHandlers): Promise<StepOutcome> {
  const [step] = await db.select().from(scheduledSteps).where(and(eq(scheduledSteps.id, stepId), eq(scheduledSteps.status, "pending")));
  if (!step) return "skipped";
  const prepared = prepare(step, handlers);
  if ("refused" in prepared) {
    await failStep(db, stepId, prepared.refused);
    return "failed";
  }
  const attempt = step.attempts + 1;
  try {
    await prepared.run(db);
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

/** The step's handler bound to its parsed payload, or why no handler can run it. */
function prepare(step: ScheduledStep, handlers: StepHandlers): { run: (db: Db) => Promise<void> } | { refused: string } {
  if (!isStepKind(step.kind)) return { refused: `unknown step kind "${step.kind}": no handler runs it` };
  return bind(step.kind, step.payload, handlers);
}

function bind<K extends StepKind>(kind: K, payload: unknown, handlers: StepHandlers): { run: (db: Db) => Promise<void> } | { refused: string } {
  const parsed = parseStepPayload(kind, payload);
  if (!parsed.success) return { refused: `payload of step "${kind}" fails its schema: ${describeIssues(parsed.error)}` };
  const handler: StepHandler<K> = handlers[kind];
  return { run: (db) => handler(db, parsed.data) };
}

/** One line per schema issue, with its path: `ctfId: Invalid input: expected string, received undefined`. */
function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message)).join("; ");
}

/**
 * Records a step as failed with its reason, unless it already finished: a step no handler
 * can run, or the outcome of an executor run that gave up (Inngest's onFailure), so the step
 * is not left pending forever.
 */
export async function failStep(db: Db, stepId: string, reason: string): Promise<boolean> {
  const rows = await db
    .update(scheduledSteps)
    .set({ status: "failed", lockedUntil: null, lastError: reason.slice(0, 500), completedAt: new Date() })
    .where(and(eq(scheduledSteps.id, stepId), eq(scheduledSteps.status, "pending")))
    .returning({ id: scheduledSteps.id });
  return rows.length > 0;
}
