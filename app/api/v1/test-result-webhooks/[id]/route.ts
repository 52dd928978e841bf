import { otherMethods } from "@/lib/platform/http/unrouted";
import { deleteWebhook, updateWebhook } from "@/lib/platform/webhooks/endpoints";
import { testResultEndpointContracts as testResults } from "@/lib/platform/webhooks/management-contracts";
import { handle } from "@/lib/registry/handle";

export const PATCH = handle(testResults.update, ({ db, workspaceId, params, body }) => updateWebhook(db, workspaceId, "certification", params.id, body));
export const DELETE = handle(testResults.remove, async ({ db, workspaceId, params }) => ({
  deleted: true as const,
  webhook: await deleteWebhook(db, workspaceId, "certification", params.id),
}));
export const { GET, POST, PUT, OPTIONS } = otherMethods({ PATCH, DELETE });
