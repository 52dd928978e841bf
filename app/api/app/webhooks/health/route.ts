import { otherMethods } from "@/lib/platform/http/unrouted";
import { webhookHealthContracts } from "@/lib/platform/webhooks/health/contracts";
import { endpointHealth } from "@/lib/platform/webhooks/health/stats";
import { handle } from "@/lib/registry/handle";

// GET /api/app/webhooks/health – each endpoint's success rate and p50 latency over the last day
export const GET = handle(webhookHealthContracts.health, ({ db, workspaceId }) => endpointHealth(db, workspaceId));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
