import { handle } from "@/lib/api/handle";
import { listCertifications } from "@/lib/certification/catalog";
import { certificationContracts as certifications } from "@/lib/certification/contracts";

export const GET = handle(certifications.list, ({ db, workspaceId, query }) => listCertifications(db, workspaceId, query));
