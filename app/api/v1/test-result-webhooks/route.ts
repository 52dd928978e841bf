import { otherMethods } from "@/lib/platform/http/unrouted";
import { createTestResultWebhook, listWebhooks } from "@/lib/platform/webhooks/endpoints";
import { testResultEndpointContracts as testResults } from "@/lib/platform/webhooks/management-contracts";
import { handle } from "@/lib/registry/handle";

export const GET = handle(testResults.list, ({ db, workspaceId, query }) => listWebhooks(db, workspaceId, "certification", query));
export const POST = handle(testResults.create, ({ db, workspaceId, body }) => createTestResultWebhook(db, workspaceId, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
