import { otherMethods } from "@/lib/platform/http/unrouted";
import { unlockHint } from "@/lib/ctf/play/play";
import { playContracts as play } from "@/lib/ctf/play/contracts";
import { handle } from "@/lib/registry/handle";

// A player unlocks a hint: its text, its cost deducted once.
export const POST = handle(play.unlockHint, ({ db, player, params }) => unlockHint(db, player, params.challenge_id, params.n));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
