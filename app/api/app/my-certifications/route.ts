import { otherMethods } from "@/lib/platform/http/unrouted";
import { createOwnCertification } from "@/lib/certification/own/manage";
import { manageCertificationContracts as mine } from "@/lib/certification/own/contracts";
import { handle } from "@/lib/registry/handle";

export const POST = handle(mine.create, ({ db, workspaceId, body }) => createOwnCertification(db, workspaceId, body));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
