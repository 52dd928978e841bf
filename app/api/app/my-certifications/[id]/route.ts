import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { getOwnCertification, updateCertification } from "@/lib/certification/manage";
import { manageCertificationContracts as mine } from "@/lib/certification/manage-contracts";

export const GET = handle(mine.get, ({ db, workspaceId, params }) => getOwnCertification(db, workspaceId, params.id));
export const PATCH = handle(mine.update, ({ db, workspaceId, params, body }) => updateCertification(db, workspaceId, params.id, body));
export const { POST, PUT, DELETE, OPTIONS } = otherMethods({ GET, PATCH });
