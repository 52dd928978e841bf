import { otherMethods } from "@/lib/platform/http/unrouted";
import { teamContracts as teams } from "@/lib/ctf/teams/contracts";
import { listTeams } from "@/lib/ctf/teams/organiser";
import { handle } from "@/lib/registry/handle";

export const GET = handle(teams.list, ({ db, workspaceId, params, query }) => listTeams(db, workspaceId, params.ctf_id, query));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
