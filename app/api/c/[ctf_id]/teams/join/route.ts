import { otherMethods } from "@/lib/platform/http/unrouted";
import { teamContracts as teams } from "@/lib/ctf/teams/contracts";
import { joinTeam } from "@/lib/ctf/teams/teams";
import { handle } from "@/lib/registry/handle";

// A player joins a team with its invite code (their cookie).
export const POST = handle(teams.join, ({ db, player, body }) => joinTeam(db, player, body));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
