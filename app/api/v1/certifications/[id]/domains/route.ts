import { otherMethods } from "@/lib/platform/http/unrouted";
import { listDomains } from "@/lib/certification/catalog/catalog";
import { certificationContracts as certifications } from "@/lib/certification/catalog/contracts";
import { ownCertificationContracts as own } from "@/lib/certification/own/contracts";
import { addDomain } from "@/lib/certification/own/manage";
import { handle } from "@/lib/registry/handle";

export const GET = handle(certifications.domains, async ({ db, workspaceId, params }) => ({ data: await listDomains(db, workspaceId, params.id) }));
export const POST = handle(own.addDomain, ({ db, workspaceId, params, body }) => addDomain(db, workspaceId, params.id, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
