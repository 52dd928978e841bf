import { otherMethods } from "@/lib/platform/http/unrouted";
import { webhookContracts as webhooks } from "@/lib/platform/webhooks/contracts";
import { deleteWebhook, updateWebhook } from "@/lib/platform/webhooks/endpoints";
import { competitionEndpointContracts as manage } from "@/lib/platform/webhooks/management-contracts";
import { handle } from "@/lib/registry/handle";

export const DELETE = handle(webhooks.remove, async ({ db, workspaceId, params }) => ({ deleted: true as const, webhook: await deleteWebhook(db, workspaceId, "competition", params.id) }));
export const PATCH = handle(manage.update, ({ db, workspaceId, params, body }) => updateWebhook(db, workspaceId, "competition", params.id, body));
export const { GET, POST, PUT, OPTIONS } = otherMethods({ DELETE, PATCH });
