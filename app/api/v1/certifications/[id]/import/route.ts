import { otherMethods } from "@/lib/platform/http/unrouted";
import { importBank } from "@/lib/certification/own/banks";
import { ownCertificationContracts as own } from "@/lib/certification/own/contracts";
import { handle } from "@/lib/registry/handle";

export const POST = handle(own.import, ({ db, workspaceId, params, query, body }) => importBank(db, workspaceId, params.id, body, query));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
