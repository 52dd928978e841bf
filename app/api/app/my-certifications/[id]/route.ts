import { otherMethods } from "@/lib/platform/http/unrouted";
import { getOwnCertification, updateCertification } from "@/lib/certification/own/manage";
import { manageCertificationContracts as mine } from "@/lib/certification/own/contracts";
import { handle } from "@/lib/registry/handle";

export const GET = handle(mine.get, ({ db, workspaceId, params }) => getOwnCertification(db, workspaceId, params.id));
export const PATCH = handle(mine.update, ({ db, workspaceId, params, body }) => updateCertification(db, workspaceId, params.id, body));
export const { POST, PUT, DELETE, OPTIONS } = otherMethods({ GET, PATCH });
