import { otherMethods } from "@/lib/platform/http/unrouted";
import { webhookContracts as webhooks } from "@/lib/platform/webhooks/contracts";
import { deleteWebhook } from "@/lib/platform/webhooks/endpoints";
import { handle } from "@/lib/registry/handle";

export const DELETE = handle(webhooks.remove, async ({ db, workspaceId, params }) => ({ deleted: true as const, webhook: await deleteWebhook(db, workspaceId, "competition", params.id) }));
export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
