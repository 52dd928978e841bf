import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { addDomain } from "@/lib/certification/manage";
import { manageCertificationContracts as mine } from "@/lib/certification/manage-contracts";

export const POST = handle(mine.addDomain, ({ db, workspaceId, params, body }) => addDomain(db, workspaceId, params.id, body));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
