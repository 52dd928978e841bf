import { otherMethods } from "@/lib/platform/http/unrouted";
import { workspaceContracts as workspaces } from "@/lib/platform/workspaces/contracts";
import { updateWorkspace, workspaceSettings } from "@/lib/platform/workspaces/settings";
import { handle } from "@/lib/registry/handle";

export const GET = handle(workspaces.get, ({ db, workspaceId }) => workspaceSettings(db, workspaceId));
export const PATCH = handle(workspaces.update, ({ db, workspaceId, body }) => updateWorkspace(db, workspaceId, body));
export const { POST, PUT, DELETE, OPTIONS } = otherMethods({ GET, PATCH });
