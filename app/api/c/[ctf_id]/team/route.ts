import { otherMethods } from "@/lib/platform/http/unrouted";
import { teamContracts as teams } from "@/lib/ctf/teams/contracts";
import { myTeam } from "@/lib/ctf/teams/teams";
import { handle } from "@/lib/registry/handle";

// A player's own team (their cookie), or null before they have one.
export const GET = handle(teams.mine, ({ db, player }) => myTeam(db, player));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
