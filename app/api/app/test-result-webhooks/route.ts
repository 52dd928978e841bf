import { otherMethods } from "@/lib/platform/http/unrouted";
import { webhookContracts as webhooks } from "@/lib/platform/webhooks/contracts";
import { createTestResultWebhook, listWebhooks } from "@/lib/platform/webhooks/endpoints";
import { handle } from "@/lib/registry/handle";

export const GET = handle(webhooks.listTestResults, ({ db, workspaceId, query }) => listWebhooks(db, workspaceId, "certification", query));

export const POST = handle(webhooks.createTestResult, ({ db, workspaceId, body }) => createTestResultWebhook(db, workspaceId, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
