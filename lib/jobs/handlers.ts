import { ctfStepHandlers } from "@/lib/ctf/steps";
import type { StepHandlers } from "@/lib/outbox/steps";
import { testStepHandlers } from "@/lib/tests/steps";

/**
 * What runs each kind of scheduled step (lib/jobs/catalog.ts), for both executors. Each area
 * exports its handlers; `satisfies StepHandlers` makes a kind without a handler a compile
 * error.
 */
export const stepHandlers = {
  ...ctfStepHandlers,
  ...testStepHandlers,
} satisfies StepHandlers;
