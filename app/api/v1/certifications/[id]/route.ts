import { handle } from "@/lib/api/handle";
import { getCertification } from "@/lib/certification/catalog";
import { certificationContracts as certifications } from "@/lib/certification/contracts";

export const GET = handle(certifications.get, ({ db, workspaceId, params }) => getCertification(db, workspaceId, params.id));
