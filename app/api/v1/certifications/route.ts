import { otherMethods } from "@/lib/platform/http/unrouted";
import { listCertifications } from "@/lib/certification/catalog/catalog";
import { certificationContracts as certifications } from "@/lib/certification/catalog/contracts";
import { handle } from "@/lib/registry/handle";

export const GET = handle(certifications.list, ({ db, workspaceId, query }) => listCertifications(db, workspaceId, query));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
