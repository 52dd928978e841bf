import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { listDomains } from "@/lib/certification/catalog";
import { certificationContracts as certifications } from "@/lib/certification/contracts";

export const GET = handle(certifications.domains, async ({ db, workspaceId, params }) => ({ data: await listDomains(db, workspaceId, params.id) }));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
