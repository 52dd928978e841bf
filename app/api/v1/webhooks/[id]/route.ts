import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { webhookContracts as webhooks } from "@/lib/webhooks/contracts";
import { deleteWebhook } from "@/lib/webhooks/endpoints";

export const DELETE = handle(webhooks.remove, async ({ db, workspaceId, params }) => ({ deleted: true as const, webhook: await deleteWebhook(db, workspaceId, "competition", params.id) }));
export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
