import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { workspaceContracts as workspaces } from "@/lib/workspaces/contracts";
import { updateWorkspace, workspaceSettings } from "@/lib/workspaces/settings";

export const GET = handle(workspaces.get, ({ db, workspaceId }) => workspaceSettings(db, workspaceId));
export const PATCH = handle(workspaces.update, ({ db, workspaceId, body }) => updateWorkspace(db, workspaceId, body));
export const { POST, PUT, DELETE, OPTIONS } = otherMethods({ GET, PATCH });
