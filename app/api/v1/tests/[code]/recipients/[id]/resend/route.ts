import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { testContracts as tests } from "@/lib/tests/contracts";
import { resendRecipient } from "@/lib/tests/tests";

export const POST = handle(tests.resend, ({ db, workspaceId, params }) => resendRecipient(db, workspaceId, params.code, params.id));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
