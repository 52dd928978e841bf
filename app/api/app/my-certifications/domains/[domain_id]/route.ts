import { otherMethods } from "@/lib/platform/http/unrouted";
import { renameDomain } from "@/lib/certification/own/manage";
import { manageCertificationContracts as mine } from "@/lib/certification/own/contracts";
import { handle } from "@/lib/registry/handle";

export const PATCH = handle(mine.renameDomain, ({ db, workspaceId, params, body }) => renameDomain(db, workspaceId, params.domain_id, body));
export const { GET, POST, PUT, DELETE, OPTIONS } = otherMethods({ PATCH });
