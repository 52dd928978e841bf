import { otherMethods } from "@/lib/platform/http/unrouted";
import { resendAllContracts } from "@/lib/certification/tests/contracts";
import { resendToAll } from "@/lib/certification/tests/tests";
import { handle } from "@/lib/registry/handle";

// POST /api/v1/tests/{code}/resend – e-mail the test again to everyone who has not finished
export const POST = handle(resendAllContracts.resendAll, ({ db, workspaceId, params, body }) => resendToAll(db, workspaceId, params.code, body));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
