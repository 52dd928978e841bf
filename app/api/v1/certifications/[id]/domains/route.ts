import { otherMethods } from "@/lib/platform/http/unrouted";
import { listDomains } from "@/lib/certification/catalog/catalog";
import { certificationContracts as certifications } from "@/lib/certification/catalog/contracts";
import { handle } from "@/lib/registry/handle";

export const GET = handle(certifications.domains, async ({ db, workspaceId, params }) => ({ data: await listDomains(db, workspaceId, params.id) }));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
