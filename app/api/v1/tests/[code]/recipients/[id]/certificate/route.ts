import { otherMethods } from "@/lib/platform/http/unrouted";
import { certificateContracts } from "@/lib/certification/certificates/contracts";
import { getCertificate, revokeCertificate } from "@/lib/certification/certificates/certificates";
import { handle } from "@/lib/registry/handle";

// GET /api/v1/tests/{code}/recipients/{id}/certificate – the recipient's certificate
export const GET = handle(certificateContracts.get, ({ db, workspaceId, params }) => getCertificate(db, workspaceId, params.code, params.id));
// DELETE /api/v1/tests/{code}/recipients/{id}/certificate – revoke it (idempotent)
export const DELETE = handle(certificateContracts.revoke, ({ db, workspaceId, params }) => revokeCertificate(db, workspaceId, params.code, params.id));
export const { POST, PUT, PATCH, OPTIONS } = otherMethods({ GET, DELETE });
