import { testStepHandlers } from "@/lib/registry/certification-step-handlers";
import { testSteps } from "@/lib/certification/steps";
import { ctfStepHandlers } from "@/lib/registry/ctf-step-handlers";
import { ctfSteps } from "@/lib/ctf/steps";
import { registeredSteps, type StepRegistry } from "@/lib/platform/pipeline/channels/steps/steps";

/**
 * The job-handler registry: every kind of scheduled step of every product, with its payload's
 * schema and its handler, for both executors (the embedded worker, Inngest). With the route
 * registry (./routes.ts), the only module that knows every product.
 */
export const stepRegistry = {
  ...registeredSteps(ctfSteps, ctfStepHandlers),
  ...registeredSteps(testSteps, testStepHandlers),
} satisfies StepRegistry;

/** `true` only while no kind belongs to two products (one would silently replace the other's handler). */
export const distinctKinds: [keyof typeof ctfSteps & keyof typeof testSteps] extends [never] ? true : never = true;
