import { otherMethods } from "@/lib/platform/http/unrouted";
import { rotateWebhookSecret } from "@/lib/platform/webhooks/endpoints";
import { competitionEndpointContracts as manage } from "@/lib/platform/webhooks/management-contracts";
import { handle } from "@/lib/registry/handle";

// As at creation, the dashboard never chooses a secret: from a session one is always generated and shown once.
export const POST = handle(manage.rotateSecret, ({ db, workspaceId, caller, params, body }) =>
  rotateWebhookSecret(db, workspaceId, "competition", params.id, caller.kind === "session" ? undefined : body.secret),
);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
