import { ctfStepHandlers } from "@/lib/ctf/step-handlers";
import type { StepHandlers } from "@/lib/platform/pipeline/channels/steps/steps";
import { testStepHandlers } from "@/lib/certification/step-handlers";

/**
 * What runs each kind of scheduled step (lib/platform/pipeline/channels/steps/catalog.ts), for both executors. Each area
 * exports its handlers; `satisfies StepHandlers` makes a kind without a handler a compile
 * error.
 */
export const stepHandlers = {
  ...ctfStepHandlers,
  ...testStepHandlers,
} satisfies StepHandlers;
