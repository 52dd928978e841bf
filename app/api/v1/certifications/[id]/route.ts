import { otherMethods } from "@/lib/platform/http/unrouted";
import { getCertification } from "@/lib/certification/catalog/catalog";
import { certificationContracts as certifications } from "@/lib/certification/catalog/contracts";
import { ownCertificationContracts as own } from "@/lib/certification/own/contracts";
import { deleteCertification, updateCertification } from "@/lib/certification/own/manage";
import { handle } from "@/lib/registry/handle";

export const GET = handle(certifications.get, ({ db, workspaceId, params }) => getCertification(db, workspaceId, params.id));
export const PATCH = handle(own.update, ({ db, workspaceId, params, body }) => updateCertification(db, workspaceId, params.id, body));
export const DELETE = handle(own.remove, ({ db, workspaceId, params }) => deleteCertification(db, workspaceId, params.id));
export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
