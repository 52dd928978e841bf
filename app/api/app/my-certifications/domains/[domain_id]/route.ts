import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { renameDomain } from "@/lib/certification/manage";
import { manageCertificationContracts as mine } from "@/lib/certification/manage-contracts";

export const PATCH = handle(mine.renameDomain, ({ db, workspaceId, params, body }) => renameDomain(db, workspaceId, params.domain_id, body));
export const { GET, POST, PUT, DELETE, OPTIONS } = otherMethods({ PATCH });
