import { serve } from "inngest/next";
import { toErrorResponse } from "@/lib/platform/http/http-errors";
import { MAX_BODY_BYTES, withBodyLimit } from "@/lib/platform/http/parse";
import { otherMethods } from "@/lib/platform/http/unrouted";
import { config } from "@/lib/kernel/config/config";
import { AppError } from "@/lib/kernel/errors";
import { newId } from "@/lib/kernel/ids";
import { getDb } from "@/lib/platform/database";
import { createFunctions, inngest } from "@/lib/platform/pipeline/executors/inngest";
import { stepRegistry } from "@/lib/registry/steps";

// The Inngest functions (webhook delivery, e-mail, scheduled steps, outbox sweep).
const inngestHandlers = serve({ client: inngest, functions: createFunctions(getDb, stepRegistry) });

type Handler = (req: Request, ctx: unknown) => Promise<Response>;

/**
 * Serves Inngest only when it is the executor: with the embedded worker there is nothing to
 * serve (404). A half configuration (see lib/kernel/config/inngest-mode.ts) is refused at start; one
 * made since (next dev, tests) answers 503, and the log, not the response, names what is
 * missing (toErrorResponse on the ConfigError).
 */
function whenInngest(handler: Handler): Handler {
  return async (req, ctx) => {
    let executor: "embedded" | "inngest";
    try {
      executor = config().inngest.executor;
    } catch (error) {
      return toErrorResponse(error, newId("req"), req);
    }
    if (executor === "embedded") {
      return toErrorResponse(new AppError("not_found", "Inngest is not configured: the embedded worker runs background work."), newId("req"));
    }
    return handler(req, ctx);
  };
}

const handlers = inngestHandlers as unknown as { GET: Handler; POST: Handler; PUT: Handler };

export const GET = whenInngest(handlers.GET);
// Execution requests carry the run's step state, so they may be larger than an API body.
export const POST = whenInngest(withBodyLimit(handlers.POST, 4 * MAX_BODY_BYTES));
export const PUT = whenInngest(withBodyLimit(handlers.PUT, 4 * MAX_BODY_BYTES));
export const { PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST, PUT });
