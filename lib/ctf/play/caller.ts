import type { PlayerCaller } from "@/lib/platform/http/callers";
import { findPlayer, playerCookieName, type Player } from "./players";

/** A competition's player, signed in by the cookie named after the competition in the path (lib/registry/handle.ts). */
export const competitionPlayerCaller: PlayerCaller<Player> = {
  param: "ctf_id",
  cookieName: playerCookieName,
  find: findPlayer,
  refusal: "Not a player of this competition: accept your invitation (its link signs you in).",
};
