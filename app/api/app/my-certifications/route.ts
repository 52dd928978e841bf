import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { createOwnCertification } from "@/lib/certification/manage";
import { manageCertificationContracts as mine } from "@/lib/certification/manage-contracts";

export const POST = handle(mine.create, ({ db, workspaceId, body }) => createOwnCertification(db, workspaceId, body));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
