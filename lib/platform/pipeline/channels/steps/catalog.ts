import type { z } from "zod";

/*
 * What a product declares of its background work: each kind of scheduled step and the zod
 * schema of its payload. Each product keeps its own catalog (lib/ctf/steps.ts,
 * lib/certification/steps.ts); the job-handler registry (lib/registry/steps.ts) puts them
 * together with their handlers. Zod only: domain code that schedules a step loads this file,
 * not the Inngest SDK. The kinds are stored in the rows (table `scheduled_steps`): renaming
 * one strands the steps already scheduled under it.
 */

/** A kind of scheduled step: what it does, and the schema of the payload it is scheduled with. */
export function step<P extends z.ZodType<Record<string, unknown>>>(description: string, payload: P) {
  return { description, payload };
}

/** A product's kinds of scheduled steps, by kind. */
export type StepCatalog = Record<string, { description: string; payload: z.ZodType<Record<string, unknown>> }>;
/** What a caller gives `scheduleStep` for a kind. */
export type StepPayload<C extends StepCatalog, K extends keyof C> = z.input<C[K]["payload"]>;
/** What the kind's handler receives: the stored payload, parsed. */
export type StepData<C extends StepCatalog, K extends keyof C> = z.output<C[K]["payload"]>;

/** Parses a payload with its kind's schema (one cast: TypeScript cannot follow `K` into the catalog). */
export function parseStepPayload<C extends StepCatalog, K extends keyof C>(catalog: C, kind: K, payload: unknown): z.ZodSafeParseResult<StepData<C, K>> {
  return catalog[kind].payload.safeParse(payload) as z.ZodSafeParseResult<StepData<C, K>>;
}
