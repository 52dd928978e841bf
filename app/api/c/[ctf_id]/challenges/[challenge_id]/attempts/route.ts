import { otherMethods } from "@/lib/platform/http/unrouted";
import { submitFlag } from "@/lib/ctf/play/play";
import { playContracts as play } from "@/lib/ctf/play/contracts";
import { handle } from "@/lib/registry/handle";

// A player submits a flag (their cookie): correct, incorrect or already_solved.
export const POST = handle(play.attempt, ({ db, player, params, body }) => submitFlag(db, player, params.challenge_id, body));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
