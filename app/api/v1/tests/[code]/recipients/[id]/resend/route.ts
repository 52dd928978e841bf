import { otherMethods } from "@/lib/platform/http/unrouted";
import { testContracts as tests } from "@/lib/certification/tests/contracts";
import { resendRecipient } from "@/lib/certification/tests/tests";
import { handle } from "@/lib/registry/handle";

export const POST = handle(tests.resend, ({ db, workspaceId, params }) => resendRecipient(db, workspaceId, params.code, params.id));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
