import { otherMethods } from "@/lib/platform/http/unrouted";
import { ownCertificationContracts as own } from "@/lib/certification/own/contracts";
import { renameDomain } from "@/lib/certification/own/manage";
import { handle } from "@/lib/registry/handle";

export const PATCH = handle(own.renameDomain, ({ db, workspaceId, params, body }) => renameDomain(db, workspaceId, params.id, params.domain_id, body));
export const { GET, POST, PUT, DELETE, OPTIONS } = otherMethods({ PATCH });
