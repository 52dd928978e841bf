import { otherMethods } from "@/lib/platform/http/unrouted";
import { getCertification } from "@/lib/certification/catalog/catalog";
import { certificationContracts as certifications } from "@/lib/certification/catalog/contracts";
import { handle } from "@/lib/registry/handle";

export const GET = handle(certifications.get, ({ db, workspaceId, params }) => getCertification(db, workspaceId, params.id));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
