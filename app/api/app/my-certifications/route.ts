import { handle } from "@/lib/api/handle";
import { createOwnCertification } from "@/lib/certification/manage";
import { manageCertificationContracts as mine } from "@/lib/certification/manage-contracts";

export const POST = handle(mine.create, ({ db, workspaceId, body }) => createOwnCertification(db, workspaceId, body));
