import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { getCertification } from "@/lib/certification/catalog";
import { certificationContracts as certifications } from "@/lib/certification/contracts";

export const GET = handle(certifications.get, ({ db, workspaceId, params }) => getCertification(db, workspaceId, params.id));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
