import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { scheduledSteps, type ScheduledStep } from "@/db/schema";
import { newId } from "@/lib/kernel/ids";
import { parseStepPayload, type StepCatalog, type StepData, type StepPayload } from "./catalog";
import { claimDue } from "@/lib/platform/pipeline/outbox/claim";
import { notifyOutbox } from "@/lib/platform/pipeline/outbox/notify";
import { MAX_ATTEMPTS, retryDelayMs } from "@/lib/platform/pipeline/outbox/schedule";

export type StepHandler<C extends StepCatalog, K extends keyof C> = (db: Db, payload: StepData<C, K>) => Promise<void>;

/** A handler for every kind of a product's catalog: a kind without one does not compile. */
export type StepHandlers<C extends StepCatalog> = { [K in keyof C]: StepHandler<C, K> };

/** A kind as the executors run it: its payload's schema and its handler. */
export type RegisteredStep = { payload: z.ZodType; run(db: Db, payload: unknown): Promise<void> };
/** Every kind of every product (lib/registry/steps.ts, the job-handler registry). */
export type StepRegistry = Readonly<Record<string, RegisteredStep>>;

/** A product's catalog with its handlers, as the executors run them. */
export function registeredSteps<C extends StepCatalog>(catalog: C, handlers: StepHandlers<C>): Record<keyof C, RegisteredStep> {
  const entries = Object.keys(catalog).map((kind) => [kind, { payload: catalog[kind].payload, run: (db: Db, payload: unknown) => handlers[kind](db, payload as StepData<C, typeof kind>) }]);
  return Object.fromEntries(entries) as Record<keyof C, RegisteredStep>;
}

export type StepOutcome = "done" | "retry" | "failed" | "skipped";

/**
 * The scheduler of a product's steps (lib/ctf/steps.ts, lib/certification/steps.ts).
 * `scheduleStep` schedules a step in the caller's transaction, due at `runAt`. The payload is
 * typed by the kind and validated by its schema before it is written: a step that could never
 * run is refused here, in the transaction that wanted it, not found later by the executor.
 */
export function stepScheduler<C extends StepCatalog>(catalog: C) {
  return async function scheduleStep<K extends keyof C & string>(tx: Db, workspaceId: string, kind: K, payload: StepPayload<C, K>, runAt: Date): Promise<ScheduledStep> {
    const parsed = parseStepPayload(catalog, kind, payload);
    if (!parsed.success) throw new Error(`cannot schedule step "${kind}": ${describeIssues(parsed.error)}`);
    const [step] = await tx.insert(scheduledSteps).values({ id: newId("stp"), workspaceId, kind, payload: parsed.data, runAt }).returning();
    await notifyOutbox(tx);
    return step;
  };
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
export async function runStep(db: Db, stepId: string, steps: StepRegistry): Promise<StepOutcome> {
  const [step] = await db.select().from(scheduledSteps).where(and(eq(scheduledSteps.id, stepId), eq(scheduledSteps.status, "pending")));
  if (!step) return "skipped";
  const prepared = prepare(step, steps);
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
function prepare(step: ScheduledStep, steps: StepRegistry): { run: (db: Db) => Promise<void> } | { refused: string } {
  const registered = Object.hasOwn(steps, step.kind) ? steps[step.kind] : undefined;
  if (!registered) return { refused: `unknown step kind "${step.kind}": no handler runs it` };
  const parsed = registered.payload.safeParse(step.payload);
  if (!parsed.success) return { refused: `payload of step "${step.kind}" fails its schema: ${describeIssues(parsed.error)}` };
  return { run: (db) => registered.run(db, parsed.data) };
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
