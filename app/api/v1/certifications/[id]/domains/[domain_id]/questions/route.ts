import { otherMethods } from "@/lib/platform/http/unrouted";
import { ownCertificationContracts as own } from "@/lib/certification/own/contracts";
import { addQuestion } from "@/lib/certification/own/manage";
import { handle } from "@/lib/registry/handle";

export const POST = handle(own.addQuestion, ({ db, workspaceId, params, body }) => addQuestion(db, workspaceId, params.id, params.domain_id, body));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
