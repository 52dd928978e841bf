import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { webhookContracts as webhooks } from "@/lib/webhooks/contracts";
import { createTestResultWebhook, listWebhooks } from "@/lib/webhooks/endpoints";

export const GET = handle(webhooks.listTestResults, ({ db, workspaceId, query }) => listWebhooks(db, workspaceId, "certification", query));

export const POST = handle(webhooks.createTestResult, ({ db, workspaceId, body }) => createTestResultWebhook(db, workspaceId, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
