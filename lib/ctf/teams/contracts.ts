import { contract, prefixedParam } from "@/lib/kernel/contract";
import { pagingQuery } from "@/lib/kernel/paging";
import { ctfParams, deleted } from "@/lib/ctf/competitions/contracts";
import { createTeamInput, joinTeamInput, myTeamView, playerTeamView, renameTeamInput, teamList, teamView } from "./schemas";

const teamParams = ctfParams.extend({ team_id: prefixedParam("team", "Team") });

const whenOpen =
  "409 `conflict` when the competition is not in `teams` mode, is hosted on CTFd (teams are formed there), is not deployed or has ended (before the start is fine), or when the player already has a team.";

/** Teams (teams mode): a player's routes (their cookie) and the organiser's (an API key or the dashboard). */
export const teamContracts = {
  create: contract({
    id: "play.teams.create",
    method: "POST",
    path: "/api/c/{ctf_id}/teams",
    caller: "player",
    params: ctfParams,
    body: createTeamInput,
    status: 201,
    response: playerTeamView,
    docs: {
      tag: "Players",
      summary: "Create a team",
      description: `Additive. A new team with the player as its first member, and its \`invite_code\` for the others. The name is unique in the competition, case-insensitively: taken → 409. ${whenOpen}`,
      errors: [409],
    },
  }),
  join: contract({
    id: "play.teams.join",
    method: "POST",
    path: "/api/c/{ctf_id}/teams/join",
    caller: "player",
    params: ctfParams,
    body: joinTeamInput,
    status: 200,
    response: playerTeamView,
    docs: {
      tag: "Players",
      summary: "Join a team with its invite code",
      description: `Additive. The team of \`invite_code\`, with the player now among its members. An unknown code (or another competition's) → 404, naming no team. A full team (\`team_size_max\` members) → 409; concurrent joins never overfill it. ${whenOpen}`,
      errors: [409],
    },
  }),
  mine: contract({
    id: "play.team",
    method: "GET",
    path: "/api/c/{ctf_id}/team",
    caller: "player",
    params: ctfParams,
    status: 200,
    response: myTeamView,
    docs: {
      tag: "Players",
      summary: "The player's team",
      description: "Additive. The competition's `mode` and `team_size_max`, and the player's `team` (its name, invite code and members by display name), or `team: null` before they have one (always in individual mode).",
    },
  }),
  list: contract({
    id: "ctfs.teams.list",
    method: "GET",
    path: "/api/v1/ctfs/{ctf_id}/teams",
    caller: "workspace",
    scope: "ctf:read",
    params: ctfParams,
    query: pagingQuery,
    status: 200,
    response: teamList,
    docs: { tag: "Teams", summary: "List a competition's teams", description: "Additive. A page of teams, oldest first, each with its members (id, display name, address). Never the invite codes." },
  }),
  rename: contract({
    id: "ctfs.teams.update",
    method: "PATCH",
    path: "/api/v1/ctfs/{ctf_id}/teams/{team_id}",
    caller: "workspace",
    scope: "ctf:write",
    params: teamParams,
    body: renameTeamInput,
    status: 200,
    response: teamView,
    docs: { tag: "Teams", summary: "Rename a team", description: "Additive. Another team's name (case-insensitively) → 409; an archived competition → 409.", errors: [409] },
  }),
  remove: contract({
    id: "ctfs.teams.delete",
    method: "DELETE",
    path: "/api/v1/ctfs/{ctf_id}/teams/{team_id}",
    caller: "workspace",
    scope: "ctf:write",
    params: teamParams,
    status: 200,
    response: deleted,
    docs: {
      tag: "Teams",
      summary: "Delete a team",
      description: "Additive. Its members are left without a team (they may create or join another); its solves, hint unlocks and flag attempts are deleted with it. An archived competition → 409.",
      errors: [409],
    },
  }),
  removeMember: contract({
    id: "ctfs.teams.members.delete",
    method: "DELETE",
    path: "/api/v1/ctfs/{ctf_id}/teams/{team_id}/members/{member_id}",
    caller: "workspace",
    scope: "ctf:write",
    params: teamParams.extend({ member_id: prefixedParam("mem", "Member") }),
    status: 200,
    response: teamView,
    docs: {
      tag: "Teams",
      summary: "Take a member out of a team",
      description: "Additive. The member is left without a team; the team keeps its solves (and the points they earned). The team as it is now. A member not in this team → 404; an archived competition → 409.",
      errors: [409],
    },
  }),
};
