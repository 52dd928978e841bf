import { otherMethods } from "@/lib/platform/http/unrouted";
import { teamContracts as teams } from "@/lib/ctf/teams/contracts";
import { removeTeamMember } from "@/lib/ctf/teams/organiser";
import { handle } from "@/lib/registry/handle";

// The member leaves the team; the team keeps its solves.
export const DELETE = handle(teams.removeMember, ({ db, workspaceId, params }) => removeTeamMember(db, workspaceId, params.ctf_id, params.team_id, params.member_id));
export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
