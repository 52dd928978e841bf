import { handle } from "@/lib/api/handle";
import { addDomain } from "@/lib/certification/manage";
import { manageCertificationContracts as mine } from "@/lib/certification/manage-contracts";

export const POST = handle(mine.addDomain, ({ db, workspaceId, params, body }) => addDomain(db, workspaceId, params.id, body));
