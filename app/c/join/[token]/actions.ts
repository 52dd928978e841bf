"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import type { AcceptState } from "@/components/competitions/accept-invitation-form";
import { playerNameInput } from "@/lib/ctf/play/schemas";
import { joinAsPlayer, playerCookieName, playerCookieOptions } from "@/lib/ctf/play/players";
import { toAppError } from "@/lib/kernel/to-app-error";
import { logError } from "@/lib/kernel/log";
import { getDb } from "@/lib/platform/database";

/**
 * Accepts the competition invitation of this token (member.joined, once) and signs the
 * member in as a player of that competition: the HttpOnly cookie `ctf_player_{ctf_id}`.
 * Accepting again (another browser) signs in again. A refusal comes back as a message.
 */
export async function acceptInvitationAction(token: string, _state: AcceptState, form: FormData): Promise<AcceptState> {
  const name = playerNameInput.safeParse(form.get("name") ?? undefined);
  if (!name.success) return { error: `Display name: ${name.error.issues[0]?.message ?? "not valid"}` };
  let joined;
  try {
    joined = await joinAsPlayer(await getDb(), token, { name: name.data });
  } catch (error) {
    const appError = toAppError(error);
    if (appError.code === "internal_error") logError("server action", error);
    return { error: appError.code === "not_found" ? "This invitation link is not valid." : appError.message };
  }
  (await cookies()).set(playerCookieName(joined.ctfId), joined.sessionToken, playerCookieOptions());
  // Back to the same page, which now shows the joined state (a reload does not post again).
  redirect(`/c/join/${encodeURIComponent(token)}`);
}
