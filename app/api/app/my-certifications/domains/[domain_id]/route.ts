import { handle } from "@/lib/api/handle";
import { renameDomain } from "@/lib/certification/manage";
import { manageCertificationContracts as mine } from "@/lib/certification/manage-contracts";

export const PATCH = handle(mine.renameDomain, ({ db, workspaceId, params, body }) => renameDomain(db, workspaceId, params.domain_id, body));
