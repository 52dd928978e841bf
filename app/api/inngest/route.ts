import { serve } from "inngest/next";
import { createFunctions, inngest } from "@/lib/jobs/inngest";

// The Inngest functions (webhook delivery, e-mail, scheduled steps, outbox sweep).
export const { GET, POST, PUT } = serve({ client: inngest, functions: createFunctions() });
