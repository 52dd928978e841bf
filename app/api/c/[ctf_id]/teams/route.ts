import { otherMethods } from "@/lib/platform/http/unrouted";
import { teamContracts as teams } from "@/lib/ctf/teams/contracts";
import { createTeam } from "@/lib/ctf/teams/teams";
import { handle } from "@/lib/registry/handle";

// A player creates a team (their cookie) and becomes its first member.
export const POST = handle(teams.create, ({ db, player, body }) => createTeam(db, player, body));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
