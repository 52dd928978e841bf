import { otherMethods } from "@/lib/platform/http/unrouted";
import { listCertifications } from "@/lib/certification/catalog/catalog";
import { certificationContracts as certifications } from "@/lib/certification/catalog/contracts";
import { ownCertificationContracts as own } from "@/lib/certification/own/contracts";
import { createOwnCertification } from "@/lib/certification/own/manage";
import { handle } from "@/lib/registry/handle";

export const GET = handle(certifications.list, ({ db, workspaceId, query }) => listCertifications(db, workspaceId, query));
export const POST = handle(own.create, ({ db, workspaceId, body }) => createOwnCertification(db, workspaceId, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
