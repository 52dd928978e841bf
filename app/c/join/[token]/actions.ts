"use server";

import { redirect } from "next/navigation";
import type { AcceptState } from "@/components/competitions/accept-invitation-form";
import { getDb } from "@/db";
import { toAppError } from "@/lib/api/http-errors";
import { logError } from "@/lib/api/log";
import { acceptInvitation } from "@/lib/ctf/members";

/** Accepts the competition invitation of this token (member.joined, once); a refusal comes back as a message. */
export async function acceptInvitationAction(token: string, _state: AcceptState, _form: FormData): Promise<AcceptState> {
  try {
    await acceptInvitation(await getDb(), token);
  } catch (error) {
    const appError = toAppError(error);
    if (appError.code === "internal_error") logError("server action", error);
    return { error: appError.code === "not_found" ? "This invitation link is not valid." : appError.message };
  }
  // Back to the same page, which now shows the joined state (a reload does not post again).
  redirect(`/c/join/${encodeURIComponent(token)}`);
}
