import { serve } from "inngest/next";
import { MAX_BODY_BYTES, withBodyLimit } from "@/lib/api/parse";
import { createFunctions, inngest } from "@/lib/jobs/inngest";

// The Inngest functions (webhook delivery, e-mail, scheduled steps, outbox sweep).
const inngestHandlers = serve({ client: inngest, functions: createFunctions() });

export const GET = inngestHandlers.GET;
// Execution requests carry the run's step state, so they may be larger than an API body.
export const POST = withBodyLimit(inngestHandlers.POST, 4 * MAX_BODY_BYTES);
export const PUT = withBodyLimit(inngestHandlers.PUT, 4 * MAX_BODY_BYTES);
