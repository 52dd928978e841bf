import { otherMethods } from "@/lib/platform/http/unrouted";
import { addDomain } from "@/lib/certification/own/manage";
import { manageCertificationContracts as mine } from "@/lib/certification/own/contracts";
import { handle } from "@/lib/registry/handle";

export const POST = handle(mine.addDomain, ({ db, workspaceId, params, body }) => addDomain(db, workspaceId, params.id, body));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
