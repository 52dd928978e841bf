import { handle } from "@/lib/api/handle";
import { webhookContracts as webhooks } from "@/lib/webhooks/contracts";
import { redeliver } from "@/lib/webhooks/deliveries";

export const POST = handle(webhooks.redeliver, ({ db, workspaceId, params }) => redeliver(db, workspaceId, params.id));
