import { otherMethods } from "@/lib/platform/http/unrouted";
import { teamContracts as teams } from "@/lib/ctf/teams/contracts";
import { deleteTeam, renameTeam } from "@/lib/ctf/teams/organiser";
import { handle } from "@/lib/registry/handle";

export const PATCH = handle(teams.rename, ({ db, workspaceId, params, body }) => renameTeam(db, workspaceId, params.ctf_id, params.team_id, body));
export const DELETE = handle(teams.remove, ({ db, workspaceId, params }) => deleteTeam(db, workspaceId, params.ctf_id, params.team_id));
export const { GET, POST, PUT, OPTIONS } = otherMethods({ PATCH, DELETE });
