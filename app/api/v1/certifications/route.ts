import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { listCertifications } from "@/lib/certification/catalog";
import { certificationContracts as certifications } from "@/lib/certification/contracts";

export const GET = handle(certifications.list, ({ db, workspaceId, query }) => listCertifications(db, workspaceId, query));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
