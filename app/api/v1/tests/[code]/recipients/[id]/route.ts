import { otherMethods } from "@/lib/platform/http/unrouted";
import { testContracts as tests } from "@/lib/certification/tests/contracts";
import { updateRecipient } from "@/lib/certification/taking/extra-time";
import { handle } from "@/lib/registry/handle";

export const PATCH = handle(tests.updateRecipient, ({ db, workspaceId, params, body }) => updateRecipient(db, workspaceId, params.code, params.id, body));
export const { GET, POST, PUT, DELETE, OPTIONS } = otherMethods({ PATCH });
